// The browser's audit of a page (at a phone's width for the site checks):
// once the page has loaded and settled for DELAY ms, the outermost elements
// that reach past the frame's width (at most five) and, when axe-core was
// loaded after the page's own scripts (AXE), its violations of the WCAG A/AA
// rules, posted to the checker that loaded it; the runtime has reported the
// page's errors meanwhile.  An element's "at" is its place among the page's
// start tags (data-wiggum-tag, written by the bundle), so Wiggum can tell the
// line it is written at; "" for an element a script made.
addEventListener("load", function () {
  var STAMP = "data-wiggum-tag", AXE = __WIGGUM_AXE__;
  var place = function (el) {
    return el && el.getAttribute ? el.getAttribute(STAMP) || "" : "";
  };
  var overflow = function () {
    var W = document.documentElement.clientWidth, out = [];
    if (document.documentElement.scrollWidth > W + 1) {
      var all = document.body ? document.body.querySelectorAll("*") : [];
      for (var i = 0; i < all.length && out.length < 5; i++) {
        var el = all[i], r = el.getBoundingClientRect(), p = el.parentElement;
        if (r.right <= W + 1 || r.width === 0) continue;
        if (p && p !== document.body && p.getBoundingClientRect().right > W + 1) continue;
        out.push({tag: el.localName, id: el.id || "", cls: el.getAttribute("class") || "",
                  right: Math.round(r.right), at: place(el)});
      }
    }
    return out;
  };
  // At most NODES elements of each rule, each as {at, html, summary}.
  var NODES = 6;
  var violations = function (results) {
    return results.violations.map(function (v) {
      return {
        id: v.id, impact: v.impact || "", help: v.help || "", count: v.nodes.length,
        nodes: v.nodes.slice(0, NODES).map(function (n) {
          var target = n.target && n.target[0], el = null;
          try { el = typeof target === "string" ? document.querySelector(target) : null; }
          catch (e) { el = null; }
          return {at: place(el), html: String(n.html || "").slice(0, 400),
                  summary: String(n.failureSummary || "").slice(0, 600)};
        })
      };
    });
  };
  setTimeout(function () {
    var found = {type: "__WIGGUM_AUDIT__", width: document.documentElement.clientWidth,
                 overflow: overflow()};
    var post = function () { parent.postMessage(found, "*"); };
    if (!AXE) return post();
    if (!window.axe || typeof window.axe.run !== "function") {
      found.axe_error = "axe-core did not load in the page";
      return post();
    }
    var start = Date.now();
    window.axe.run(document, {
      runOnly: {type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]},
      resultTypes: ["violations"]
    }).then(function (results) {
      found.axe = violations(results);
      found.axe_ms = Date.now() - start;
      post();
    }, function (error) {
      found.axe_error = "axe-core failed: " + String(error && error.message || error);
      post();
    });
  }, __WIGGUM_DELAY__);
});
