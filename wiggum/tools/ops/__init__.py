"""The command layer: one implementation behind a structured tool and its shell twin.

``read_file`` and ``cat``, ``write_file`` and ``>``/``tee``, ``edit_file`` and
``sed -i``, ``delete_file`` and ``rm``, ``list_files`` and ``ls``/``find``,
the ``grep`` tool and the ``grep`` command all call into these modules, so
their behaviour (paths, policy, errors, matching) cannot drift apart.
"""
