"""Each shell command with the flags agents use."""

from __future__ import annotations

import pytest


async def test_cat(sh):
    assert await sh("cat README.md") == ("# Demo\n", 0)
    assert await sh("cat -n src/app.js") == ("     1\tconst a = 1;\n     2\tconsole.log(a);\n", 0)
    assert await sh("echo piped | cat") == ("piped\n", 0)
    assert await sh("echo in | cat README.md - README.md") == ("# Demo\nin\n# Demo\n", 0)
    out, status = await sh("cat README.md nope src")
    assert status == 1
    assert out == "# Demo\ncat: nope: No such file or directory\ncat: src: Is a directory\n"


async def test_cat_binary(sh, fs):
    await fs.write_bytes("img.png", b"\x89PNG\r\n\x1a\n\xff")
    out, status = await sh("cat img.png")
    assert status == 1 and "binary" in out


async def test_head_tail(sh, fs):
    await fs.write_text("n.txt", "".join(f"{i}\n" for i in range(1, 21)))
    assert (await sh("head -3 n.txt"))[0] == "1\n2\n3\n"
    assert (await sh("head -n 2 n.txt"))[0] == "1\n2\n"
    assert (await sh("head -n -18 n.txt"))[0] == "1\n2\n"
    assert (await sh("head n.txt | wc -l"))[0] == "10\n"
    assert (await sh("tail -2 n.txt"))[0] == "19\n20\n"
    assert (await sh("tail -n +19 n.txt"))[0] == "19\n20\n"
    assert (await sh("tail -n 1 README.md src/app.js"))[0] == (
        "==> README.md <==\n# Demo\n\n==> src/app.js <==\nconsole.log(a);\n"
    )
    assert (await sh("head -c 4 README.md"))[0] == "# De"
    assert (await sh("seq 5 | tail -n 2"))[0] == "4\n5\n"
    out, status = await sh("head -n x n.txt")
    assert status == 2 and "invalid number" in out


async def test_wc(sh):
    assert await sh("wc -l src/app.js") == ("2 src/app.js\n", 0)
    assert await sh("cat src/app.js | wc -l") == ("2\n", 0)
    assert await sh("wc src/app.js") == (" 2  5 29 src/app.js\n", 0)
    out, _ = await sh("wc -l src/*.js")
    assert out == "2 src/app.js\n4 src/util.js\n6 total\n"
    assert await sh("printf 'héllo' | wc -c -m") == ("5 6\n", 0)


async def test_echo_and_printf(sh):
    assert await sh("echo -n no newline") == ("no newline", 0)
    assert await sh("echo -e 'a\\tb\\nc'") == ("a\tb\nc\n", 0)
    assert await sh("echo 'a\\tb'") == ("a\\tb\n", 0)
    assert await sh("echo -x") == ("-x\n", 0)
    assert await sh("printf '%s=%d\\n' a 1 b 2") == ("a=1\nb=2\n", 0)
    assert await sh("printf '%5.2f|%-4s|%03d|%x|%%\\n' 3.14159 ab 7 255") == (
        " 3.14|ab  |007|ff|%\n",
        0,
    )
    assert await sh("printf 'no args\\n'") == ("no args\n", 0)
    assert await sh("printf '%b' 'x\\ny'") == ("x\ny", 0)
    out, status = await sh("printf '%d\\n' abc")
    assert status == 1 and "0\n" in out and "printf: abc: invalid number" in out


async def test_mkdir_touch(sh, fs):
    assert await sh("mkdir -p a/b/c && touch a/b/c/f.txt && ls a/b/c") == ("f.txt\n", 0)
    out, status = await sh("mkdir a")
    assert (out, status) == ("mkdir: cannot create directory 'a': File exists\n", 1)
    out, status = await sh("mkdir x/y")
    assert status == 1 and "No such file or directory" in out
    assert (await sh("mkdir -p a"))[1] == 0
    before = (await fs.stat("README.md")).modified
    await sh("touch README.md")
    assert (await fs.stat("README.md")).modified > before
    assert await fs.read_text("README.md") == "# Demo\n"
    assert await sh("mkdir -p src/{components,lib} && ls src") == (
        "app.js\ncomponents\nlib\nstyles\nutil.js\n",
        0,
    )


async def test_ls(sh):
    assert await sh("ls") == ("README.md\nindex.html\nsrc\n", 0)
    out, _ = await sh("ls -a")
    assert out == ".chief\n.ralph\nREADME.md\nindex.html\nsrc\n"
    assert await sh("ls src/*.js") == ("src/app.js\nsrc/util.js\n", 0)
    assert await sh("ls -F src") == ("app.js\nstyles/\nutil.js\n", 0)
    assert await sh("ls README.md src/styles") == ("README.md\n\nsrc/styles:\nmain.css\n", 0)
    out, _ = await sh("ls -R src")
    assert out == "src:\napp.js\nstyles\nutil.js\n\nsrc/styles:\nmain.css\n"
    out, _ = await sh("ls -l src/app.js")
    assert out.startswith("-rw-r--r-- 1 ralph ralph       29 ") and out.endswith(" src/app.js\n")
    out, status = await sh("ls nope")
    assert (out, status) == ("ls: cannot access 'nope': No such file or directory\n", 2)
    out, status = await sh("ls -Z")
    assert (out, status) == ("ls: invalid option -- 'Z'\n", 2)


async def test_grep_command(sh):
    assert await sh("grep const src/app.js") == ("const a = 1;\n", 0)
    assert await sh("grep -n const src/*.js") == (
        "src/app.js:1:const a = 1;\nsrc/util.js:1:export const b = 2;\n",
        0,
    )
    assert await sh("grep -c const src/app.js") == ("1\n", 0)
    assert await sh("grep -l const -r src") == ("src/app.js\nsrc/util.js\n", 0)
    assert await sh("grep -rL const src") == ("src/styles/main.css\n", 0)
    assert await sh("grep -i HELLO index.html") == ("<h1>Hello</h1>\n", 0)
    assert await sh("grep -v e src/util.js") == ("}\n", 0)
    assert await sh("grep -w a src/app.js") == ("const a = 1;\nconsole.log(a);\n", 0)
    assert await sh("grep -x '}' src/util.js") == ("}\n", 0)
    assert await sh("grep -o 'con[a-z]*' src/app.js") == ("const\nconsole\n", 0)
    assert await sh("grep 'const\\|function' src/util.js") == (
        "export const b = 2;\nexport function add(x, y) {\n",
        0,
    )
    assert await sh("grep -E 'const|function' src/util.js | wc -l") == ("2\n", 0)
    assert await sh("grep -F 'a + b' src/util.js") == ("", 1)
    assert await sh("grep -F 'x + y' src/util.js") == ("  return x + y;\n", 0)
    assert await sh("grep -e const -e return src/util.js") == (
        "export const b = 2;\n  return x + y;\n",
        0,
    )
    assert await sh("grep '[[:digit:]]' src/app.js") == ("const a = 1;\n", 0)
    assert await sh("grep -q const src/app.js && echo found") == ("found\n", 0)
    assert await sh("grep zzz src/app.js") == ("", 1)
    assert await sh("grep -r --include='*.css' margin .") == (
        "./src/styles/main.css:body { margin: 0; }\n",
        0,
    )
    assert await sh("cd src && grep -rn 'b = 2'") == ("util.js:1:export const b = 2;\n", 0)
    out, status = await sh("grep x nope")
    assert (out, status) == ("grep: nope: No such file or directory\n", 2)
    assert await sh("grep 'log(' src/app.js") == ("console.log(a);\n", 0)  # BRE: ( is literal
    out, status = await sh("grep -E '(' src/app.js")
    assert status == 2 and "invalid regular expression" in out
    out, _ = await sh("grep src index.html")
    assert out == '<script src="src/app.js"></script>\n'


async def test_grep_context(sh, fs):
    await fs.write_text("c.txt", "".join(f"l{i}\n" for i in range(1, 11)))
    assert await sh("grep -n -A1 -e l2 -e l8 c.txt") == ("2:l2\n3-l3\n--\n8:l8\n9-l9\n", 0)
    assert await sh("grep -C1 l5 c.txt") == ("l4\nl5\nl6\n", 0)
    assert await sh("grep -m1 l1 c.txt") == ("l1\n", 0)


async def test_rm(sh, fs):
    assert await sh("rm README.md && ls") == ("index.html\nsrc\n", 0)
    out, status = await sh("rm src")
    assert (out, status) == ("rm: cannot remove 'src': Is a directory\n", 1)
    out, status = await sh("rm nope")
    assert (out, status) == ("rm: cannot remove 'nope': No such file or directory\n", 1)
    assert await sh("rm -f nope") == ("", 0)
    assert await sh("rm -rf src/styles && ls src") == ("app.js\nutil.js\n", 0)
    assert await sh("rm src/*.js && ls src") == ("", 0)
    assert await fs.is_dir("src")
    assert await sh("rm -r src && ls") == ("index.html\n", 0)


async def test_mv_cp(sh, fs):
    assert await sh("mv README.md docs.md && cat docs.md") == ("# Demo\n", 0)
    assert await sh("mkdir lib && mv src/util.js lib/ && ls lib") == ("util.js\n", 0)
    assert await sh("mv src/app.js src/main.js && ls src") == ("main.js\nstyles\n", 0)
    assert await sh("cp docs.md copy.md && cat copy.md docs.md") == ("# Demo\n# Demo\n", 0)
    out, status = await sh("cp src dst")
    assert (out, status) == ("cp: -r not specified; omitting directory 'src'\n", 1)
    assert await sh("cp -r src dst && ls dst dst/styles") == (
        "dst:\nmain.js\nstyles\n\ndst/styles:\nmain.css\n",
        0,
    )
    assert await sh("cp index.html docs.md lib && ls lib") == ("docs.md\nindex.html\nutil.js\n", 0)
    out, status = await sh("mv index.html docs.md nowhere")
    assert (out, status) == ("mv: target 'nowhere' is not a directory\n", 1)
    out, status = await sh("mv nope x")
    assert status == 1 and "No such file" in out
    out, status = await sh("mv src src/inside")
    assert status == 1 and "into itself" in out
    await fs.write_bytes("b.bin", b"\x00\xff")
    await sh("cp b.bin c.bin")
    assert await fs.read_bytes("c.bin") == b"\x00\xff"


async def test_find(sh):
    assert await sh("find src") == (
        "src\nsrc/app.js\nsrc/styles\nsrc/styles/main.css\nsrc/util.js\n",
        0,
    )
    assert await sh("find . -name '*.js'") == ("./src/app.js\n./src/util.js\n", 0)
    assert await sh("find . -type d") == (".\n./.chief\n./.ralph\n./src\n./src/styles\n", 0)
    assert await sh("find . -maxdepth 1 -type f -name '*.md'") == ("./README.md\n", 0)
    assert await sh("find src -path '*styles*' -type f") == ("src/styles/main.css\n", 0)
    assert await sh("find . -name '*.js' -not -name 'app*'") == ("./src/util.js\n", 0)
    assert await sh("find . -name '*.css' -o -name '*.html' | sort") == (
        "./index.html\n./src/styles/main.css\n",
        0,
    )
    assert await sh("find . -path ./.ralph -prune -o -path ./.chief -prune -o -type f -print") == (
        "./README.md\n./index.html\n./src/app.js\n./src/styles/main.css\n./src/util.js\n",
        0,
    )
    assert await sh("find src -name '*.js' -exec grep -l export {} \\;") == ("src/util.js\n", 0)
    assert await sh("find src -name '*.js' -exec wc -l {} +") == (
        "2 src/app.js\n4 src/util.js\n6 total\n",
        0,
    )
    assert await sh("find src -iname 'APP.JS'") == ("src/app.js\n", 0)
    out, status = await sh("find nope")
    assert status == 1 and "No such file" in out


async def test_find_delete(sh, fs):
    await fs.write_text("a.tmp", "")
    await fs.write_text("src/b.tmp", "")
    assert await sh("find . -name '*.tmp' -delete") == ("", 0)
    assert not await fs.exists("a.tmp") and not await fs.exists("src/b.tmp")
    out, status = await sh("find . -delete")
    assert status == 1 and "refused" in out
    assert await fs.exists("index.html")


async def test_xargs(sh):
    assert await sh("find src -name '*.js' | xargs grep -l export") == ("src/util.js\n", 0)
    assert await sh("echo a b c | xargs -n 1 echo item") == ("item a\nitem b\nitem c\n", 0)
    assert await sh("printf 'x\\ny\\n' | xargs -I{} echo '<{}>'") == ("<x>\n<y>\n", 0)


async def test_sort_uniq(sh, fs):
    await fs.write_text("w.txt", "b\na\nc\na\nB\n10\n9\n")
    assert (await sh("sort w.txt"))[0] == "10\n9\nB\na\na\nb\nc\n"
    assert (await sh("sort -u w.txt | head -3"))[0] == "10\n9\nB\n"
    assert (await sh("sort -r w.txt | head -2"))[0] == "c\nb\n"
    assert (await sh("grep '^[0-9]' w.txt | sort -n"))[0] == "9\n10\n"
    # Equal keys fall back to comparing whole lines, as GNU sort does.
    assert (await sh("sort -f w.txt | tail -3"))[0] == "B\nb\nc\n"
    assert (await sh("sort w.txt | uniq -c | head -4"))[0] == (
        "      1 10\n      1 9\n      1 B\n      2 a\n"
    )
    assert (await sh("sort w.txt | uniq -d"))[0] == "a\n"
    assert (await sh("printf 'x 3\\ny 1\\nz 2\\n' | sort -k2 -n"))[0] == "y 1\nz 2\nx 3\n"
    assert (await sh("printf 'a,3\\nb,1\\n' | sort -t, -k2"))[0] == "b,1\na,3\n"


async def test_tr_cut(sh):
    assert await sh("echo Hello | tr a-z A-Z") == ("HELLO\n", 0)
    assert await sh("echo 'a  b   c' | tr -s ' '") == ("a b c\n", 0)
    assert await sh("echo hello | tr -d l") == ("heo\n", 0)
    assert await sh("echo a:b:c | cut -d: -f2") == ("b\n", 0)
    assert await sh("echo a:b:c | cut -d: -f1,3") == ("a:c\n", 0)
    assert await sh("echo abcdef | cut -c2-4") == ("bcd\n", 0)


async def test_diff_unified(sh, fs):
    await fs.write_text("a.txt", "one\ntwo\nthree\nfour\n")
    await fs.write_text("b.txt", "one\n2\nthree\nfour\nfive\n")
    out, status = await sh("diff a.txt b.txt")
    assert status == 1
    assert out == ("--- a.txt\n+++ b.txt\n@@ -1,4 +1,5 @@\n one\n-two\n+2\n three\n four\n+five\n")
    assert await sh("diff -u a.txt a.txt") == ("", 0)
    assert await sh("diff -q a.txt b.txt") == ("Files a.txt and b.txt differ\n", 1)
    out, status = await sh("diff a.txt nope")
    assert (out, status) == ("diff: nope: No such file or directory\n", 2)


async def test_diff_no_newline_and_stdin(sh, fs):
    await fs.write_text("a.txt", "x\ny")
    await fs.write_text("b.txt", "x\nz\n")
    out, _ = await sh("diff a.txt b.txt")
    assert out == (
        "--- a.txt\n+++ b.txt\n@@ -1,2 +1,2 @@\n x\n-y\n\\ No newline at end of file\n+z\n"
    )
    out, _ = await sh("printf 'x\\nz\\n' | diff - b.txt")
    assert out == ""


async def test_diff_recursive(sh, fs):
    await sh("cp -r src copy && echo changed > copy/app.js && rm copy/util.js")
    out, status = await sh("diff -r src copy")
    assert status == 1
    assert out == (
        "--- src/app.js\n+++ copy/app.js\n@@ -1,2 +1 @@\n-const a = 1;\n-console.log(a);\n"
        "+changed\nOnly in src: util.js\n"
    )


async def test_test_builtin(sh):
    script = (
        "[ -f README.md ] && echo f; [ -d src ] && echo d; [ -e nope ] || echo e; "
        "[ -z '' ] && echo z; [ -n x ] && echo n; [ 3 -gt 2 ] && echo gt; "
        "[ abc = abc ] && echo eq; [ abc != abd ] && echo ne; test ! -f src && echo not; "
        "[ -f README.md -a -d src ] && echo and; [[ app.js == *.js ]] && echo glob; "
        "[ -s README.md ] && echo s"
    )
    out, _ = await sh(script)
    assert out == "f\nd\ne\nz\nn\ngt\neq\nne\nnot\nand\nglob\ns\n"
    out, status = await sh("[ -f README.md")
    assert (out, status) == ("[: missing `]'\n", 2)
    out, status = await sh("[ a -lt 2 ]")
    assert status == 2 and "integer expected" in out


async def test_pwd_basename_dirname_seq(sh):
    assert await sh("pwd; cd src/styles; pwd") == (".\nsrc/styles\n", 0)
    assert await sh("basename src/app.js .js; dirname src/app.js; dirname app.js") == (
        "app\nsrc\n.\n",
        0,
    )
    assert await sh("seq 3; seq 2 4 | tr '\\n' ' '") == ("1\n2\n3\n2 3 4 ", 0)


async def test_tee(sh, fs):
    assert await sh("echo hi | tee a.txt b.txt | tr a-z A-Z") == ("HI\n", 0)
    assert await fs.read_text("b.txt") == "hi\n"
    await sh("echo more | tee -a a.txt > /dev/null")
    assert await fs.read_text("a.txt") == "hi\nmore\n"


@pytest.mark.parametrize("command", ["cat", "grep", "sed", "sort", "uniq", "head", "tail"])
async def test_filters_read_stdin(sh, command):
    args = {"grep": "x", "sed": "p"}.get(command, "")
    out, status = await sh(f"echo x | {command} {args}")
    assert status == 0 and "x" in out


async def test_xargs_replace_with_separate_marker_and_max_args(sh):
    out, status = await sh("printf 'a.js\\nb.js\\n' | xargs -I {} echo 'file: {}'")
    assert (out, status) == ("file: a.js\nfile: b.js\n", 0)
    assert await sh("seq 5 | xargs -n 2") == ("1 2\n3 4\n5\n", 0)


async def test_nl(sh, fs):
    await fs.write_text("e.txt", "a\n\nb\n")
    assert await sh("nl e.txt") == ("     1\ta\n       \n     2\tb\n", 0)
    assert await sh("nl -ba e.txt") == ("     1\ta\n     2\t\n     3\tb\n", 0)
    assert await sh("nl -w3 -s': ' -v5 e.txt") == ("  5: a\n     \n  6: b\n", 0)
    assert await sh("nl -nrz -w3 e.txt | head -1") == ("001\ta\n", 0)
    assert await sh("nl -nln -w3 e.txt | head -1") == ("1  \ta\n", 0)
    out, status = await sh("nl -bx e.txt")
    assert (out, status) == ("nl: invalid body numbering style: 'x'\n", 2)


async def test_paste(sh, fs):
    await fs.write_text("l.txt", "a\nb\nc\n")
    await fs.write_text("n.txt", "1\n2\n")
    assert await sh("paste l.txt n.txt") == ("a\t1\nb\t2\nc\t\n", 0)
    assert await sh("paste -d, l.txt n.txt") == ("a,1\nb,2\nc,\n", 0)
    assert await sh("paste -sd, l.txt n.txt") == ("a,b,c\n1,2\n", 0)
    assert await sh("paste -d ',;' l.txt n.txt l.txt") == ("a,1;a\nb,2;b\nc,;c\n", 0)
    assert await sh("cat l.txt | paste - -") == ("a\tb\nc\t\n", 0)
    assert await sh("seq 4 | paste -sd+ -") == ("1+2+3+4\n", 0)
    assert await sh("paste nope l.txt") == ("paste: nope: No such file or directory\n", 1)
