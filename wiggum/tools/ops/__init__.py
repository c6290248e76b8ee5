"""The core operations under the tools and the shell's commands.

A structured tool and its shell twin are one class (``read_file`` is ``cat``,
``write_file`` ``tee``, ``list_files`` ``ls``, ``grep`` ``grep``,
``delete_file`` ``rm``); its two faces call into these modules, and so do the
commands that do part of the same job: the shell's ``>``/``>>`` write with
``write_text``, ``sed -i`` edits with ``edit_file`` as ``edit_file`` does,
``find`` walks with ``list_entries`` and deletes with ``remove_path``,
``mv``/``cp`` check the same write policy.  Paths, policy, errors and matching
cannot drift apart.
"""
