"""while/until, read, case, functions, (( )): the shell as agents write it."""

from __future__ import annotations

import pytest

from wiggum.fs import MemoryFileStore
from wiggum.tools.shell import Interpreter, ShellLimits, default_commands

# -- while / until -------------------------------------------------------------------


async def test_while_counts_with_arithmetic(sh):
    out, status = await sh("i=0; while [ $i -lt 3 ]; do echo $i; i=$((i + 1)); done")
    assert (out, status) == ("0\n1\n2\n", 0)


async def test_until_loop(sh):
    out, status = await sh("n=5; until [ $n -le 2 ]; do n=$((n - 1)); done; echo $n")
    assert (out, status) == ("2\n", 0)


async def test_while_break_and_continue(sh):
    script = """
    i=0
    while true; do
      i=$((i + 1))
      [ $i -eq 2 ] && continue
      [ $i -gt 4 ] && break
      echo $i
    done
    """
    assert await sh(script) == ("1\n3\n4\n", 0)


async def test_break_out_of_nested_loops(sh):
    script = "for a in 1 2; do while true; do echo $a; break 2; done; done; echo end"
    assert await sh(script) == ("1\nend\n", 0)


async def test_loop_status_is_last_body_status(sh):
    assert await sh("while false; do :; done; echo $?") == ("0\n", 0)
    assert await sh("i=0; while [ $i -lt 1 ]; do i=1; false; done; echo $?") == ("1\n", 0)


async def test_while_condition_failure_is_not_an_error_under_set_e(sh):
    assert await sh("set -e; while false; do :; done; echo after") == ("after\n", 0)


async def test_endless_while_is_stopped():
    interp = Interpreter(MemoryFileStore(), default_commands())
    outcome = await interp.run("while true; do :; done; echo unreachable")
    assert outcome.status == 124
    assert "endless loop" in outcome.output and "unreachable" not in outcome.output


async def test_while_iteration_limit():
    limits = ShellLimits(max_loop_iterations=3)
    interp = Interpreter(MemoryFileStore(), default_commands(), limits=limits)
    outcome = await interp.run("until false; do :; done")
    assert outcome.status == 124
    assert "until loop still running after 3 iterations" in outcome.output


async def test_loop_output_redirected_once(sh, fs):
    out, _ = await sh("i=0; while [ $i -lt 2 ]; do echo line$i; i=$((i+1)); done > loop.txt")
    assert out == ""
    assert await fs.read_text("loop.txt") == "line0\nline1\n"


# -- read --------------------------------------------------------------------------


async def test_pipe_into_while_read(sh):
    out, status = await sh('grep -l export src/*.js | while read -r f; do echo "has: $f"; done')
    assert (out, status) == ("has: src/util.js\n", 0)


async def test_while_read_from_redirect_with_fields(sh, fs):
    await fs.write_text("people.txt", "ann 31 london\nbob 42 new york\n")
    script = 'while read -r name age city; do echo "$name|$age|$city"; done < people.txt'
    assert await sh(script) == ("ann|31|london\nbob|42|new york\n", 0)


async def test_while_read_from_heredoc_shares_input_with_body(sh):
    # `cat` in the body takes the rest of the loop's input, as with a real pipe.
    out, _ = await sh('while read l; do echo "got $l"; cat; done <<EOF\n1\n2\n3\nEOF')
    assert out == "got 1\n2\n3\n"


async def test_read_ifs_splitting(sh):
    assert await sh('IFS=, read -r a b c <<< "x,y,z"; echo "$a-$b-$c"') == ("x-y-z\n", 0)
    assert await sh('read a b <<< "  one   two  three "; echo "[$a][$b]"') == (
        "[one][two  three]\n",
        0,
    )
    assert await sh('IFS=: read a b <<< "::x"; echo "[$a][$b]"') == ("[][:x]\n", 0)
    assert await sh('IFS=, read a b <<< "1,2,"; echo "[$a][$b]"') == ("[1][2]\n", 0)
    assert await sh('read a b c <<< "only"; echo "[$a][$b][$c]"') == ("[only][][]\n", 0)


async def test_read_prefix_assignment_is_temporary(sh):
    out, _ = await sh('IFS= read -r line <<< "  keep  "; echo "[$line]"; echo "[${IFS-unset}]"')
    assert out == "[  keep  ]\n[unset]\n"


async def test_read_backslashes(sh):
    assert await sh(r'read a <<< "x\ty"; echo "$a"') == ("xty\n", 0)
    assert await sh(r'read -r a <<< "x\ty"; echo "$a"') == ("x\\ty\n", 0)
    assert await sh('read a b <<< "x\\ y z"; echo "[$a][$b]"') == ("[x y][z]\n", 0)
    assert await sh("read a <<'EOF'\none \\\ntwo\nEOF\necho \"$a\"") == ("one two\n", 0)


async def test_read_status_and_last_line_without_newline(sh):
    out, _ = await sh("printf 'a\\nlast' | { while read x; do echo $x; done; echo \"[$x]\"; }")
    assert out == "a\n[last]\n"
    out, _ = await sh("printf 'a\\nlast' | while read x || [ -n \"$x\" ]; do echo $x; done")
    assert out == "a\nlast\n"
    assert await sh("read x < /dev/null; echo $?") == ("1\n", 0)
    assert await sh("read x; echo $?") == ("1\n", 0)


async def test_read_reply_delim_and_count(sh):
    assert await sh('read <<< "  as is  "; echo "[$REPLY]"') == ("[  as is  ]\n", 0)
    assert await sh('read -d , x <<< "ab,cd"; echo "$x"') == ("ab\n", 0)
    assert await sh('read -n 3 x <<< "abcdef"; echo "$x"') == ("abc\n", 0)


async def test_read_in_a_pipeline_stage_does_not_leak(sh):
    assert await sh("x=old; echo new | read x; echo $x") == ("old\n", 0)


async def test_read_errors(sh):
    assert await sh("read 1x <<< a") == ("read: `1x': not a valid identifier\n", 1)
    out, status = await sh("read -a arr <<< 'a b'")
    assert status == 2 and out.startswith("read: -a: arrays are not supported")


# -- case ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("subject", "expected"),
    [("app.js", "script"), ("index.ts", "script"), ("main.css", "style"), ("x", "other")],
)
async def test_case_glob_patterns_and_alternatives(sh, subject, expected):
    script = f"""
    f={subject}
    case "$f" in
      *.js|*.ts) echo script ;;
      (*.css) echo style ;;
      *) echo other ;;
    esac
    """
    assert await sh(script) == (expected + "\n", 0)


async def test_case_quoted_pattern_is_literal_and_variables_expand(sh):
    assert await sh('case "a*" in "a*") echo lit;; *) echo glob;; esac') == ("lit\n", 0)
    assert await sh('case abc in "a*") echo lit;; *) echo glob;; esac') == ("glob\n", 0)
    assert await sh('p="*.md"; case README.md in $p) echo yes;; esac') == ("yes\n", 0)


async def test_case_first_match_wins_and_no_match_is_success(sh):
    out, status = await sh("case x in x) echo one;; x) echo two;; esac; case y in z) :;; esac")
    assert (out, status) == ("one\n", 0)
    assert await sh("false; case q in a) :;; esac; echo $?") == ("0\n", 0)


async def test_case_empty_body_and_last_arm_without_terminator(sh):
    assert await sh("case a in a) ;; b) echo b; esac; echo done") == ("done\n", 0)
    assert await sh("case b in a) ;; b) echo b\nesac") == ("b\n", 0)


async def test_case_option_parsing_loop(sh):
    script = """
    set -- -v --name demo file.txt
    while [ $# -gt 0 ]; do
      case "$1" in
        -v|--verbose) echo verbose ;;
        --name) shift; echo "name=$1" ;;
        -*) echo "unknown $1" ;;
        *) echo "arg $1" ;;
      esac
      shift
    done
    """
    assert await sh(script) == ("verbose\nname=demo\narg file.txt\n", 0)


# -- functions -----------------------------------------------------------------------


async def test_function_arguments_and_return(sh):
    script = """
    greet() {
      echo "n=$# first=$1 all=$*"
      for a in "$@"; do echo "[$a]"; done
      return 3
    }
    greet one "two words"
    echo "status=$?"
    """
    out, status = await sh(script)
    assert (out, status) == ("n=2 first=one all=one two words\n[one]\n[two words]\nstatus=3\n", 0)


async def test_function_keyword_form_and_dashed_names(sh):
    assert await sh("function hi { echo hi; }; hi") == ("hi\n", 0)
    assert await sh("function hi() { echo hi2; }; hi") == ("hi2\n", 0)
    assert await sh("build-site() { echo built; }\nbuild-site") == ("built\n", 0)


async def test_function_positional_parameters_are_restored(sh):
    script = 'set -- outer; f() { echo "in:$1"; shift; echo "left:$#"; }; f a b; echo "out:$1 $#"'
    assert await sh(script) == ("in:a\nleft:1\nout:outer 1\n", 0)


async def test_local_variables(sh):
    script = "x=global; f() { local x=inner y; y=2; echo $x$y; }; f; echo $x ${y-unset}"
    assert await sh(script) == ("inner2\nglobal unset\n", 0)
    out, status = await sh("local x=1")
    assert (out, status) == ("local: can only be used in a function\n", 1)


async def test_return_without_value_uses_last_status(sh):
    assert await sh("f() { false; return; }; f; echo $?") == ("1\n", 0)
    assert await sh("f() { true; }; f; echo $?") == ("0\n", 0)
    assert await sh("return 1") == ("return: can only `return' from a function\n", 1)


async def test_function_in_pipeline_and_substitution(sh):
    script = "upper() { tr a-z A-Z; }; echo hi | upper; v=$(echo x | upper); echo $v"
    assert await sh(script) == ("HI\nX\n", 0)


async def test_function_output_redirected_and_recursion_bounded(sh):
    out, _ = await sh("f() { echo in-file; }; f > f.txt; cat f.txt")
    assert out == "in-file\n"
    out, status = await sh("f() { f; }; f")
    assert status == 124 and "function calls nested more than" in out


async def test_function_shadows_command_but_command_builtin_bypasses(sh):
    script = "ls() { echo mine; }; ls; command ls src/styles"
    assert await sh(script) == ("mine\nmain.css\n", 0)


async def test_function_defined_in_subshell_stays_there(sh):
    out, status = await sh("(f() { :; }); f")
    assert (out, status) == ("f: command not found\n", 127)


async def test_loop_and_case_inside_function(sh, fs):
    script = """
    classify() {
      for f in "$@"; do
        case "$f" in
          *.js) echo "js $f" ;;
          *) echo "other $f" ;;
        esac
      done
    }
    classify src/*
    """
    assert await sh(script) == ("js src/app.js\nother src/styles\njs src/util.js\n", 0)


# -- (( )) and arithmetic assignment -----------------------------------------------------


async def test_arithmetic_command_and_assignments(sh):
    assert await sh("i=1; ((i++)); ((i += 5)); echo $i") == ("7\n", 0)
    assert await sh("(( 2 > 3 )); echo $?; (( 3 > 2 )); echo $?") == ("1\n0\n", 0)
    assert await sh("n=0; while (( n < 3 )); do ((n++)); done; echo $n") == ("3\n", 0)
    assert await sh("echo $((x = 4, x * 2)) $x") == ("8 4\n", 0)
    assert await sh("a=3; echo $(( a > 2 ? 10 : 20 )) $((--a))") == ("10 2\n", 0)


async def test_arithmetic_errors_are_reported(sh):
    out, status = await sh("(( 1 / 0 )); echo after")
    assert out == "sh: division by 0\nafter\n" and status == 0
    out, _ = await sh("(( 1 ? 2 )); echo $?")
    assert "`:' expected" in out and out.endswith("1\n")


async def test_nested_subshells_are_not_arithmetic(sh):
    assert await sh("((cd src && pwd); pwd)") == ("src\n.\n", 0)


async def test_positional_parameters_with_set(sh):
    assert await sh('set -- a "b c"; echo $# "$2" ${1}') == ("2 b c a\n", 0)
    assert await sh('set -- ; for x in "$@"; do echo no; done; echo "[$@]"') == ("[]\n", 0)
    assert await sh("set -- 1 2 3 4 5 6 7 8 9 10; echo ${10} $10") == ("10 10\n", 0)
    assert await sh("shift") == ("shift: shift count out of range\n", 1)


async def test_type_and_command_v_know_functions_which_does_not(sh):
    out, status = await sh("f() { :; }; type f; command -v f; which f")
    assert (out, status) == ("f is a function\nf\n", 1)


# -- [[ ]], for (( )), let ----------------------------------------------------------------


async def test_double_brackets_do_not_split_or_glob(sh):
    # *.js would glob to the project's files if it were an ordinary word.
    assert await sh("f=src/app.js; [[ $f == *.js ]] && echo js") == ("js\n", 0)
    assert await sh('f=app.js; [[ $f == "*.js" ]] || echo literal') == ("literal\n", 0)
    assert await sh('x=" a  b "; [[ $x == " a  b " ]] && echo kept') == ("kept\n", 0)
    assert await sh("e=; [[ -z $e ]] && echo empty") == ("empty\n", 0)


async def test_double_brackets_take_and_or_and_comparisons(sh):
    script = (
        "k=x; [[ -n $k && $k != y ]] && echo and; "
        "[[ -z $k || $k == x ]] && echo or; "
        "[[ a < b ]] && echo lt; "
        "[[ ( -z $k || $k == x ) && 1 -eq 1 ]] && echo group"
    )
    assert await sh(script) == ("and\nor\nlt\ngroup\n", 0)
    assert await sh("[[ b < a ]]; echo $?") == ("1\n", 0)


async def test_double_brackets_in_a_read_loop(sh, fs):
    await fs.write_text("cfg.txt", "a=1\n# note\n\nb=2\n")
    script = """
    while IFS='=' read -r key value; do
      [[ -z "$key" || "$key" == \\#* ]] && continue
      echo "$key -> $value"
    done < cfg.txt
    """
    assert await sh(script) == ("a -> 1\nb -> 2\n", 0)


async def test_double_brackets_unterminated(sh):
    out, status = await sh("[[ -f README.md")
    assert status == 2 and "expected `]]'" in out


async def test_c_style_for(sh):
    assert await sh("for ((i=0; i<3; i++)); do echo $i; done") == ("0\n1\n2\n", 0)
    assert await sh("for (( i = 10; i > 0; i -= 4 )); do echo $i; done") == ("10\n6\n2\n", 0)
    script = "for ((i=0; i<5; i++)); do [ $i = 1 ] && continue; [ $i = 3 ] && break; echo $i; done"
    assert await sh(script) == ("0\n2\n", 0)
    assert await sh("for ((;;)); do echo once; break; done") == ("once\n", 0)
    out, status = await sh("for ((i=0; i<3)); do :; done")
    assert status == 2 and "for (( init; condition; step ))" in out


async def test_c_style_for_is_bounded():
    limits = ShellLimits(max_loop_iterations=4)
    interp = Interpreter(MemoryFileStore(), default_commands(), limits=limits)
    outcome = await interp.run("for ((;;)); do :; done")
    assert outcome.status == 124 and "still running after 4 iterations" in outcome.output


async def test_let(sh):
    assert await sh('let i=1+2 "j = i * 2"; echo $i $j') == ("3 6\n", 0)
    assert await sh("let 0; echo $?") == ("1\n", 0)
    assert await sh("let") == ("let: expression expected\n", 1)


async def test_arrays_are_refused_clearly(sh):
    for script in ("arr=(a b c)", "echo ${arr[0]}"):
        out, status = await sh(script)
        assert status == 2 and "arrays are not supported here" in out


# -- parameter operators ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("expr", "expected"),
    [
        ("${f/index/main}", "main.test.html"),
        ("${f//t/T}", "index.TesT.hTml"),
        ("${f/#in/IN}", "INdex.test.html"),
        ("${f/%html/htm}", "index.test.htm"),
        ("${f/.*/}", "index"),
        ('"${f/"."/ dot }"', "index dot test.html"),
        ("${f//[aeiou]/_}", "_nd_x.t_st.html"),
        ("${f/nomatch/x}", "index.test.html"),
        ("${f:0:5}", "index"),
        ("${f:6}", "test.html"),
        ("${f: -4}", "html"),
        ("${f:1:-5}", "ndex.test"),
        ("${f^^}", "INDEX.TEST.HTML"),
        ("${f^}", "Index.test.html"),
        ("${U,,}", "loud"),
        ("${U,}", "lOUD"),
    ],
)
async def test_parameter_operators(sh, expr, expected):
    assert await sh(f"f=index.test.html; U=LOUD; echo {expr}") == (expected + "\n", 0)


async def test_substring_error(sh):
    assert await sh("x=abc; echo ${x:2:-3}") == ("sh: -3: substring expression < 0\n", 1)
