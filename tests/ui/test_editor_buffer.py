from wiggum.ui.editor_buffer import Buffer, language_for


def test_language_for_each_site_kind():
    assert language_for("index.html") == "html"
    assert language_for("css/site.CSS") == "css"
    assert language_for("app.js") == "javascript"
    assert language_for("data.json") == "json"
    assert language_for("README.md") == "markdown"
    assert language_for("logo.svg") == "xml"
    assert language_for("notes") == ""
    assert language_for("v1.2/notes.txt") == ""


def test_clean_buffer_takes_the_new_disk_text():
    b = Buffer("a.html", "old", "old")
    assert b.disk_changed("new") == "reload"
    assert (b.base, b.text, b.dirty) == ("new", "new", False)


def test_unsaved_edits_are_never_replaced_by_ralphs_rewrite():
    b = Buffer("a.html", "old", "old")
    b.edited("mine")
    assert b.disk_changed("his") == "conflict"
    assert b.text == "mine" and b.dirty and b.theirs == "his"


def test_keep_mine_makes_his_text_the_base_so_save_overwrites_it():
    b = Buffer("a.html", "old", "mine")
    b.disk_changed("his")
    b.keep_mine()
    assert b.base == "his" and b.text == "mine" and b.dirty and b.theirs is None


def test_take_his_puts_his_text_in_the_buffer():
    b = Buffer("a.html", "old", "mine")
    b.disk_changed("his")
    assert b.take_theirs() == "his"
    assert not b.dirty and b.theirs is None


def test_same_text_on_disk_is_no_conflict():
    b = Buffer("a.html", "old", "mine")
    assert b.disk_changed("old") == "none"
    assert b.disk_changed("mine") == "none"
    assert not b.dirty


def test_save_clears_dirty():
    b = Buffer("a.html", "old", "old")
    b.edited("new")
    assert b.dirty
    b.saved()
    assert not b.dirty
