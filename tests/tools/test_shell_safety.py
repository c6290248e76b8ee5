"""The shell's safety policy: nothing leaves the project, agent state is protected."""

from __future__ import annotations

import pytest

from wiggum.tools.shell import REFUSED


@pytest.mark.parametrize(
    "command",
    [
        "cat ../secret",
        "cat /etc/passwd",
        "ls /",
        "ls ..",
        "cd .. && ls",
        "cd /",
        "echo x > /tmp/x",
        "echo x > ../x",
        "cp README.md ../x",
        "cp /etc/passwd x",
        "mv README.md /x",
        "rm -rf ..",
        "rm -rf /",
        "rm -rf ../*",
        "grep -r x ..",
        "find .. -name x",
        "find / -name x",
        "sed -i s/a/b/ ../x",
        "touch C:/x",
        "cat 'a\\b'",
        "cat ~/x",
        "mkdir ../x",
        "diff README.md ../x",
        "tee ../x < README.md",
        "cd src && cat ../../x",
    ],
)
async def test_paths_outside_the_project_are_refused(sh, fs, command):
    before = {p: await fs.read_bytes(p) for p in await fs.list()}
    out, status = await sh(command)
    assert status != 0 or command == "cd /", out
    after = {p: await fs.read_bytes(p) for p in await fs.list()}
    assert after == before


async def test_cd_slash_means_project_root(sh):
    assert await sh("cd src; cd /; pwd") == (".\n", 0)


async def test_refusal_messages_are_clear(sh):
    out, status = await sh("cat /etc/passwd")
    assert status == 1
    assert "absolute paths are outside the project" in out
    out, _ = await sh("cat ../x")
    assert "'..' leads outside the project" in out


@pytest.mark.parametrize(
    "command", ["rm -rf *", "rm -r ./*", "rm *", "rm -rf .*", "cd src && rm -rf ../*"]
)
async def test_rm_wildcard_at_root_refused(sh, fs, command):
    out, status = await sh(command)
    assert status == 126 and "would delete the whole project" in out
    assert await fs.exists("index.html") and await fs.exists("src/app.js")


async def test_rm_wildcard_below_root_allowed(sh, fs):
    assert await sh("rm -rf src/*") == ("", 0)
    assert await fs.is_dir("src") and not await fs.exists("src/app.js")


@pytest.mark.parametrize("command", ["rm -rf .", "rm -rf ./", "rm -r src/..", "mv . x"])
async def test_root_cannot_be_removed(sh, fs, command):
    out, status = await sh(command)
    assert status != 0, out
    assert await fs.exists("index.html")


@pytest.mark.parametrize(
    "command",
    ["curl https://example.com", "wget x", "sudo rm x", "chmod +x a.sh", "ssh host", "kill 1"],
)
async def test_dangerous_commands_refused(sh, command):
    out, status = await sh(command)
    name = command.split()[0]
    assert status == 126
    assert out.startswith(f"{name}: refused: ")


def test_refused_list_has_reasons():
    assert {"curl", "wget", "sudo", "chmod", "ssh", "dd"} <= set(REFUSED)


@pytest.mark.parametrize(
    "command",
    [
        "echo done > .ralph/status.txt",
        "echo x >> .ralph/status.txt",
        "rm .ralph/status.txt",
        "rm -rf .ralph",
        "rm -rf .chief",
        "mv .ralph/status.txt x",
        "cp README.md .ralph/status.txt",
        "sed -i s/running/done/ .ralph/status.txt",
        "touch .chief/new.md",
        "mkdir .chief/x",
        "echo x | tee .chief/plan.md",
        "find .ralph -name '*.txt' -delete",
        "echo x > .ralph/task.md",
    ],
)
async def test_agent_state_is_read_only(sh, fs, command):
    out, status = await sh(command)
    assert status != 0
    assert "refused" in out
    assert await fs.read_text(".ralph/status.txt") == "running\n"
    assert await fs.read_text(".chief/prompt.md") == "Build a page\n"
    assert not await fs.exists(".ralph/task.md")


async def test_agent_state_is_readable_and_ralph_memory_writable(sh, fs):
    assert await sh("cat .ralph/status.txt .chief/prompt.md") == ("running\nBuild a page\n", 0)
    assert await sh("echo '- [x] build' > .ralph/plan.md && echo note >> .ralph/progress.md") == (
        "",
        0,
    )
    assert await fs.read_text(".ralph/progress.md") == "note\n"
    assert await sh("echo scratch > .ralph/tmp/x.txt && rm -rf .ralph/tmp") == ("", 0)


@pytest.mark.parametrize(
    "command",
    [
        "f() { rm -rf *; }; f",
        "case x in x) rm -rf ./* ;; esac",
        'wipe() { rm -rf "$@"; }; wipe *',
        "X='*'; rm -rf $X",
        "rm -rf $(ls)",
        "ls | xargs rm -rf",
        "ls | while read -r f; do echo $f; done | xargs rm -r",
        "find . -maxdepth 1 -not -name '.*' -not -name . -exec rm -rf {} +",
        "cd src && rm -rf ../index.html ../src ../README.md",
    ],
)
async def test_removing_the_whole_project_is_refused_however_spelled(sh, fs, command):
    out, status = await sh(command)
    assert status != 0, out
    assert "refused" in out and "whole project" in out
    assert await fs.exists("index.html") and await fs.exists("src/app.js")


async def test_removing_some_root_entries_is_allowed(sh, fs):
    assert await sh("rm index.html README.md") == ("", 0)
    assert await fs.exists("src/app.js") and not await fs.exists("index.html")


@pytest.mark.parametrize(
    "command",
    [
        "f() { curl https://example.com; }; f",
        "case a in a) sudo ls ;; esac",
        "while true; do wget x; exit $?; done",
        "echo https://example.com | xargs curl",
        "echo x | xargs -I{} sh -c 'chmod +x {}'",
    ],
)
async def test_dangerous_commands_refused_inside_new_constructs(sh, command):
    out, status = await sh(command)
    assert status != 0
    assert ": refused: " in out


async def test_function_named_like_a_refused_command_is_still_refused(sh):
    out, status = await sh("curl() { echo fake; }; curl x")
    assert status == 126 and out.startswith("curl: refused: ")


@pytest.mark.parametrize(
    "command",
    ["curl https://example.com", "wget x", "sudo rm x", "chmod +x a.sh", "ssh host", "kill 1"],
)
async def test_env_runs_its_command_through_the_same_refusal(sh, command):
    assert await sh(f"env {command}") == await sh(command)
    assert await sh(f"env -i -- A=1 {command}") == await sh(command)
    out, status = await sh(f"env FOO=bar {command}")
    assert status == 126 and out.startswith(f"{command.split()[0]}: refused: ")


@pytest.mark.parametrize(
    "command", ["env rm -rf *", "env -i X=1 rm -rf ./*", "command rm -rf *", "env -u A rm *"]
)
async def test_rm_wildcard_at_root_refused_behind_env(sh, fs, command):
    out, status = await sh(command)
    assert status == 126 and "would delete the whole project" in out
    assert await fs.exists("index.html") and await fs.exists("src/app.js")


async def test_rm_wildcard_behind_env_refused_with_one_root_entry(sh, fs):
    # The expanded-operand check allows removing the only visible entry; the
    # check of the words as written must still see `rm -rf *` behind env.
    for path in ("index.html", "README.md"):
        await fs.remove(path)
    out, status = await sh("env rm -rf *")
    assert status == 126 and "would delete the whole project" in out
    assert await fs.exists("src/app.js")
