// The acceptance probes' hands in the page (added after the site's own
// scripts): once the page has loaded it says so (__WIGGUM_READY__); then it
// does each step the preview posts (__WIGGUM_STEP__, only from the parent
// window) and posts what it saw (__WIGGUM_SEEN__). It decides nothing: the
// preview judges what it saw. Elements are found as a visitor finds them:
// by role and accessible name, by visible text, or by CSS selector.
(function () {
  var send = function (m) { try { parent.postMessage(m, "*"); } catch (e) {} };
  var ROLES = {
    button: "button, input[type=button], input[type=submit], input[type=reset], [role=button]",
    link: "a[href], [role=link]",
    textbox: "input:not([type]), input[type=text], input[type=email], input[type=search], " +
      "input[type=tel], input[type=url], input[type=password], input[type=number], " +
      "textarea, [contenteditable=''], [contenteditable=true], [role=textbox]",
    checkbox: "input[type=checkbox], [role=checkbox]",
    radio: "input[type=radio], [role=radio]",
    combobox: "select, [role=combobox]",
    heading: "h1, h2, h3, h4, h5, h6, [role=heading]",
    listitem: "li, [role=listitem]",
    list: "ul, ol, [role=list]",
    img: "img, [role=img]",
    navigation: "nav, [role=navigation]",
    main: "main, [role=main]",
    form: "form, [role=form]",
    dialog: "dialog, [role=dialog]"
  };
  var squash = function (s) { return String(s || "").replace(/\s+/g, " ").trim(); };
  var shown = function (el) { return el.getClientRects().length > 0; };
  var textOf = function (el) {
    if (el.value !== undefined && /^(INPUT|TEXTAREA|SELECT)$/.test(el.tagName)) return String(el.value);
    return squash(el.innerText !== undefined ? el.innerText : el.textContent);
  };
  var nameOf = function (el) {
    var label = el.getAttribute("aria-label");
    if (label) return squash(label);
    var by = el.getAttribute("aria-labelledby");
    if (by) {
      return squash(by.split(/\s+/).map(function (id) {
        var l = document.getElementById(id); return l ? l.textContent : "";
      }).join(" "));
    }
    if (el.labels && el.labels.length) return squash(el.labels[0].textContent);
    if (el.tagName === "INPUT" && /^(button|submit|reset)$/.test(el.type)) return squash(el.value);
    if (el.tagName === "IMG") return squash(el.alt);
    if (/^(INPUT|TEXTAREA)$/.test(el.tagName)) {
      return squash(el.getAttribute("placeholder") || el.getAttribute("title"));
    }
    return squash(el.textContent) || squash(el.getAttribute("title"));
  };
  var find = function (t) {
    var all, low;
    if (t.selector) return Array.prototype.filter.call(document.querySelectorAll(t.selector), shown);
    if (t.role) {
      var sel = ROLES[t.role] || "[role=" + JSON.stringify(t.role) + "]";
      all = Array.prototype.filter.call(document.querySelectorAll(sel), shown);
      if (!t.name) return all;
      low = squash(t.name).toLowerCase();
      return all.filter(function (el) { return nameOf(el).toLowerCase().indexOf(low) >= 0; });
    }
    low = squash(t.text).toLowerCase();
    all = Array.prototype.filter.call(document.body ? document.body.querySelectorAll("*") : [], shown);
    var hits = all.filter(function (el) { return textOf(el).toLowerCase().indexOf(low) >= 0; });
    // The innermost elements that say it: not the body around them.
    return hits.filter(function (el) {
      return !hits.some(function (other) { return other !== el && el.contains(other); });
    });
  };
  var seen = function (els) {
    return {found: els.length, texts: els.slice(0, 5).map(textOf)};
  };
  var typeInto = function (el, text) {
    el.focus();
    if (el.isContentEditable) el.textContent = text; else el.value = text;
    el.dispatchEvent(new Event("input", {bubbles: true}));
    el.dispatchEvent(new Event("change", {bubbles: true}));
  };
  var act = function (step) {
    if (step.click || step.into) {
      var els = find(step.click || step.into);
      if (els.length) {
        if (step.click) els[0].click(); else typeInto(els[0], step.type);
      }
      return seen(els);
    }
    if (step.expect) return seen(find(step.expect));
    if (step.expect_stored) {
      var area = step.area === "session" ? sessionStorage : localStorage;
      return {value: area.getItem(step.expect_stored)};
    }
    return {};
  };
  addEventListener("message", function (event) {
    var m = event.data;
    if (event.source !== parent || !m || m.type !== "__WIGGUM_STEP__") return;
    var out;
    try { out = act(m.step); } catch (e) { out = {problem: String(e && e.message || e)}; }
    // A step's handlers may answer on the next tick (a fetch, a timer): wait a little.
    setTimeout(function () {
      out.id = m.id;
      out.type = "__WIGGUM_SEEN__";
      out.page_text = squash(document.body ? document.body.innerText : "").slice(0, 4000);
      send(out);
    }, __WIGGUM_SETTLE__);
  });
  addEventListener("load", function () {
    setTimeout(function () { send({type: "__WIGGUM_READY__"}); }, __WIGGUM_SETTLE__);
  });
})();
