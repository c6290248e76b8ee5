"""Pipes, redirections, lists, exit codes, control flow, limits, the tool wrapper."""

from __future__ import annotations

from wiggum.fs import MemoryFileStore
from wiggum.tools import ShellTool, ToolContext
from wiggum.tools.shell import Interpreter, ShellLimits, default_commands


async def test_pipeline(sh):
    out, status = await sh("cat src/app.js src/util.js | grep -v console | wc -l")
    assert (out, status) == ("5\n", 0)


async def test_pipeline_status_is_last_stage_unless_pipefail(sh):
    assert (await sh("false | true"))[1] == 0
    assert (await sh("set -o pipefail; false | true"))[1] == 1
    assert (await sh("true | false"))[1] == 1
    assert (await sh("! true | false"))[1] == 0


async def test_and_or_short_circuit(sh):
    out, status = await sh("true && echo a || echo b")
    assert (out, status) == ("a\n", 0)
    out, status = await sh("false && echo a || echo b")
    assert (out, status) == ("b\n", 0)
    out, status = await sh("false || false && echo never")
    assert (out, status) == ("", 1)
    out, status = await sh("cat nope && echo never")
    assert out == "cat: nope: No such file or directory\n" and status == 1
    out, status = await sh("false; echo still runs")
    assert (out, status) == ("still runs\n", 0)


async def test_exit_codes(sh):
    assert (await sh("exit 3"))[1] == 3
    assert (await sh("echo a; exit; echo b")) == ("a\n", 0)
    assert (await sh("false; exit"))[1] == 1
    assert (await sh("(exit 4); echo $?")) == ("4\n", 0)
    assert (await sh("X=$(false); echo $?")) == ("1\n", 0)
    assert (await sh("exit 3 | cat; echo after")) == ("after\n", 0)


async def test_errexit(sh):
    out, status = await sh("set -euo pipefail\necho one\nfalse\necho two")
    assert (out, status) == ("one\n", 1)
    out, status = await sh("set -e; false || echo handled; if false; then :; fi; echo end")
    assert (out, status) == ("handled\nend\n", 0)


async def test_redirections(sh, fs):
    out, status = await sh("echo one > out.txt; echo two >> out.txt; cat < out.txt")
    assert (out, status) == ("one\ntwo\n", 0)
    out, _ = await sh("echo new > out.txt; cat out.txt")
    assert out == "new\n"
    await sh("> empty.txt")
    assert await fs.read_text("empty.txt") == ""
    out, _ = await sh("echo into/deep/dir > a/b/c.txt; cat a/b/c.txt")
    assert out == "into/deep/dir\n"


async def test_stderr_redirections(sh, fs):
    out, _ = await sh("cat nope 2>/dev/null; echo $?")
    assert out == "1\n"
    out, _ = await sh("cat nope > all.txt 2>&1; cat all.txt")
    assert out == "cat: nope: No such file or directory\n"
    # Order matters: 2>&1 first copies the terminal, then stdout moves to the file.
    out, _ = await sh("cat nope README.md 2>&1 > out.txt")
    assert out == "cat: nope: No such file or directory\n"
    assert await fs.read_text("out.txt") == "# Demo\n"
    out, _ = await sh("cat nope 2> err.txt; cat err.txt")
    assert out == "cat: nope: No such file or directory\n"
    out, _ = await sh("cat README.md nope &> both.txt; cat both.txt")
    assert out == "# Demo\ncat: nope: No such file or directory\n"
    out, _ = await sh("echo visible >&2")
    assert out == "visible\n"
    out, _ = await sh("cat nope 2>&1 | grep -c 'No such'")
    assert out == "1\n"
    out, _ = await sh("echo gone > /dev/null; cat /dev/null; echo x 1>/dev/null")
    assert out == ""


async def test_stdout_and_stderr_interleave_in_order(sh):
    out, _ = await sh("echo a; cat nope; echo b")
    assert out == "a\ncat: nope: No such file or directory\nb\n"


async def test_redirect_errors(sh):
    out, status = await sh("echo x > src")
    assert (out, status) == ("sh: src: Is a directory\n", 1)
    out, status = await sh("cat < missing.txt")
    assert (out, status) == ("sh: missing.txt: No such file or directory\n", 1)
    out, status = await sh("echo x > *.md")
    assert status == 0
    out, status = await sh("echo x > ../up.txt")
    assert status == 1 and "outside the project" in out


async def test_subshell_and_group(sh):
    out, _ = await sh("(cd src && pwd); pwd; { cd src; pwd; }; pwd")
    assert out == "src\n.\nsrc\nsrc\n"
    out, _ = await sh("X=1; (X=2; echo $X); echo $X")
    assert out == "2\n1\n"
    out, _ = await sh("{ echo a; echo b; } > g.txt; cat g.txt")
    assert out == "a\nb\n"


async def test_if_elif_else(sh):
    script = """
    for f in README.md src nope; do
      if [ -d "$f" ]; then echo "$f dir"
      elif test -f $f; then echo "$f file"
      else echo "$f none"
      fi
    done
    """
    out, _ = await sh(script)
    assert out == "README.md file\nsrc dir\nnope none\n"


async def test_for_loop_over_glob_with_break_continue(sh):
    out, _ = await sh(
        "for f in src/*.js; do case_=$f; echo $f; done; "
        "for i in 1 2 3 4; do [ $i = 2 ] && continue; [ $i = 4 ] && break; echo $i; done"
    )
    assert out == "src/app.js\nsrc/util.js\n1\n3\n"


async def test_command_substitution_in_pipeline(sh):
    out, _ = await sh('echo "files: $(ls src | wc -l)"')
    assert out == "files: 3\n"


async def test_cd_and_relative_paths(sh):
    out, status = await sh(
        "cd src && cat app.js | head -1 && cat ../README.md && cd .. && ls -d src"
    )
    assert out == "const a = 1;\n# Demo\nsrc\n"
    assert await sh("cd src; cd -; pwd") == (".\n.\n", 0)
    out, status = await sh("cd nope")
    assert (out, status) == ("cd: nope: No such file or directory\n", 1)
    out, status = await sh("cd README.md")
    assert status == 1 and "Not a directory" in out


async def test_variables_and_export(sh):
    out, _ = await sh("export A=1 B; C=3 env | grep -E '^(A|B|C)='; echo ${C:-unset}")
    assert out == "A=1\nB=\nC=3\nunset\n"


async def test_eval_and_sh_c(sh):
    out, _ = await sh("CMD='echo hi | tr a-z A-Z'; eval $CMD; sh -c 'echo nested; exit 3'; echo $?")
    assert out == "HI\nnested\n3\n"
    out, _ = await sh("echo 'echo from file' > s.sh; bash s.sh")
    assert out == "from file\n"


async def test_unknown_command(sh):
    assert await sh("frobnicate now") == ("frobnicate: command not found\n", 127)
    out, status = await sh("python3 -c 1 || echo fallback")
    assert out.startswith("python3: command not found (there is no python3 here")
    assert out.endswith("fallback\n") and status == 0


async def test_a_package_manager_is_answered_with_what_to_do_instead(sh):
    out, status = await sh("npm install react")
    assert status == 127 and out.startswith("npm: command not found (")
    assert "write the files yourself" in out and "ES modules" in out


async def test_which(sh):
    out, status = await sh("which grep; command -v sed; which node")
    assert (out, status) == ("/usr/bin/grep\nsed\n", 1)
    assert await sh("/usr/bin/echo ok") == ("ok\n", 0)


async def test_loop_limit():
    fs = MemoryFileStore()
    interp = Interpreter(fs, default_commands(), limits=ShellLimits(max_loop_iterations=5))
    outcome = await interp.run("for i in {1..100}; do :; done; echo not reached")
    assert outcome.status == 124
    assert "for loop over 100 items" in outcome.output


async def test_command_limit():
    fs = MemoryFileStore()
    interp = Interpreter(fs, default_commands(), limits=ShellLimits(max_commands=10))
    outcome = await interp.run("for i in 1 2 3 4 5 6 7 8 9 10 11 12; do true; done")
    assert outcome.status == 124 and "more than 10 commands" in outcome.output


async def test_nesting_limit():
    fs = MemoryFileStore()
    interp = Interpreter(fs, default_commands(), limits=ShellLimits(max_depth=3))
    outcome = await interp.run("echo $(echo $(echo $(echo $(echo deep))))")
    assert outcome.status == 124 and "nested" in outcome.output


async def test_output_limit_keeps_running():
    fs = MemoryFileStore({"big.txt": "x" * 5000})
    interp = Interpreter(fs, default_commands(), limits=ShellLimits(max_output_chars=100))
    outcome = await interp.run("cat big.txt; echo done > marker.txt")
    assert outcome.output.startswith("x" * 100)
    assert "[output limit reached: 4900 more characters not shown]" in outcome.output
    assert await fs.read_text("marker.txt") == "done\n"


async def test_pipe_buffer_limit_stops_the_run():
    fs = MemoryFileStore({"big.txt": "x" * 5000})
    interp = Interpreter(fs, default_commands(), limits=ShellLimits(max_buffer_chars=1000))
    outcome = await interp.run("cat big.txt big.txt | wc -c")
    assert outcome.status == 124 and "exceeded" in outcome.output


async def test_script_length_limit():
    fs = MemoryFileStore()
    interp = Interpreter(fs, default_commands(), limits=ShellLimits(max_script_chars=10))
    outcome = await interp.run("echo 12345678901234567890")
    assert outcome.status == 2 and "script too long" in outcome.output


async def test_shell_tool_result(fs):
    tool = ShellTool()
    ctx = ToolContext(fs)
    ok = await tool.run(tool.Args(command="echo hi"), ctx)
    assert (ok.output, ok.is_error, ok.exit_code) == ("hi\n", False, 0)
    quiet = await tool.run(tool.Args(command="true"), ctx)
    assert quiet.output == "(no output)"
    bad = await tool.run(tool.Args(command="echo partial; cat nope"), ctx)
    assert bad.output == "partial\ncat: nope: No such file or directory\n[exit 1]"
    assert bad.is_error and bad.exit_code == 1
    assert "grep" in tool.definition().description
    assert tool.definition().parameters["required"] == ["command"]


async def test_shell_tool_uses_context_cwd_and_env(fs):
    tool = ShellTool()
    ctx = ToolContext(fs, cwd="src", env={"GREETING": "hey"})
    r = await tool.run(tool.Args(command="echo $GREETING; ls"), ctx)
    assert r.output == "hey\napp.js\nstyles\nutil.js\n"


async def test_redirect_truncates_before_the_command_runs(sh, fs):
    await fs.write_text("f.txt", "b\na\n")
    assert await sh("sort f.txt > f.txt") == ("", 0)
    assert await fs.read_text("f.txt") == ""
    await fs.write_text("f.txt", "keep\n")
    _, status = await sh("nosuchcommand > f.txt")
    assert status == 127 and await fs.read_text("f.txt") == ""


async def test_cat_refuses_to_append_a_file_to_itself(sh, fs):
    await fs.write_text("f.txt", "once\n")
    out, status = await sh("cat f.txt >> f.txt")
    assert (out, status) == ("cat: f.txt: input file is output file\n", 1)
    assert await fs.read_text("f.txt") == "once\n"


async def test_append_from_the_same_file_reads_it_once(sh, fs):
    await fs.write_text("f.txt", "x1\nx2\n")
    assert await sh("grep x f.txt >> f.txt") == ("", 0)
    assert await fs.read_text("f.txt") == "x1\nx2\nx1\nx2\n"


async def test_env_runs_a_command_with_the_changed_environment(sh):
    assert await sh("env GREETING=hey sh -c 'echo $GREETING'") == ("hey\n", 0)
    assert await sh("env A=1 B=2 printenv A B") == ("1\n2\n", 0)
    # The change holds for the command only, as for a child process.
    assert await sh("env A=1 true; echo ${A:-unset}") == ("unset\n", 0)
    assert await sh("env A=1 export B=2; env A=1 cd src; echo ${B:-unset} $PWD") == (
        "unset .\n",
        0,
    )
    assert await sh("X=1 env -u X printenv X") == ("", 1)
    out, _ = await sh("X=1 env --unset=X -uPWD env")
    assert "HOME=.\n" in out and "X=" not in out and "PWD=" not in out
    assert await sh("X=1 env -i Y=2 env") == ("Y=2\n", 0)
    assert await sh("env - env") == ("", 0)
    # Its status is the command's; options end at the first assignment or command.
    assert await sh("env false") == ("", 1)
    assert await sh("env A=1 ls -d src") == ("src\n", 0)
    assert await sh("env sh -c 'exit 3'; echo $?") == ("3\n", 0)
    out, status = await sh("env nope")
    assert (out, status) == ("nope: command not found\n", 127)
    out, status = await sh("env -z")
    assert status == 2 and "env: invalid option -- 'z'" in out


async def test_env_runs_programs_not_shell_functions(sh):
    assert await sh("f() { echo fn; }; env f") == ("f: command not found\n", 127)
    assert await sh("echo() { printf fn; }; env echo real") == ("real\n", 0)


async def test_env_without_a_command_prints_the_changed_environment(sh):
    out, _ = await sh("env -i A=1 B=x=y")
    assert out == "A=1\nB=x=y\n"
