"""Ralph: the autonomous build loop with files as memory."""
