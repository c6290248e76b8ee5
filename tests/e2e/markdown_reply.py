"""A long model reply (~36 KB) with code, tables, lists and task lists (e2e and bench/markdown.py)."""

from __future__ import annotations

_SECTION = """## Step {n}: the {name} module

Here is **what changes** in step {n}, with *emphasis*, `inline code`, ~~old~~ new
and a link to [the docs](https://example.com/docs/{n}) and https://example.org/{n}.

```python
def step_{n}(items: list[str]) -> dict[str, int]:
    \"\"\"Count the items of step {n} (a long line follows).\"\"\"
    counts: dict[str, int] = {{}}
    for item in items:  # {long}
        counts[item] = counts.get(item, 0) + 1
    return counts
```

| File | Lines | Status |
|:-----|------:|:------:|
| `src/{name}.py` | {n}0 | **done** |
| `tests/test_{name}.py` | {n}5 | pending |

- [x] write `step_{n}`
- [ ] test it
  1. unit tests
  2. the *e2e* run

> Note: step {n} keeps every file. See [top](#top).

1. First, run `make {name}`.
2. Then check the output:

   ```sh
   make {name} && echo ok
   ```
"""

NAMES = ["parser", "lexer", "router", "store", "views", "forms", "cache", "auth"]


def markdown_reply(size: int = 36_000) -> str:
    parts = ["# A long reply\n\nIntro paragraph with **bold** text.\n"]
    n = 0
    while sum(map(len, parts)) < size:
        n += 1
        parts.append(_SECTION.format(n=n, name=NAMES[n % len(NAMES)], long="x" * 160))
    return "\n".join(parts)
