(function () {
  "use strict";
  var send = function (m) { try { parent.postMessage(m, "*"); } catch (e) {} };
  var lines = __WIGGUM_LINES__;
  var PAGE = __WIGGUM_PAGE__;
  var MAX = 2000;
  // [project file, line] of a script URL and its line, or null.
  var place = function (url, n) {
    var f = String(url || ""), i;
    n = n | 0;
    if (!n) return null;
    if (f.slice(0, 5) === "data:") {
      var els = document.querySelectorAll("script[data-src]");
      for (i = 0; i < els.length; i++) {
        if (els[i].src === f) return [els[i].getAttribute("data-src"), n];
      }
      return null;
    }
    // Script code ends with a //# sourceURL of its own; its lines count from its start.
    if (Object.prototype.hasOwnProperty.call(lines, f)) return [lines[f][0], n + lines[f][1]];
    return null;
  };
  // A stack with its script URLs as project files and lines ("at f (app.js:12)").
  var FRAME = /((?:data:[^\s()]*?|[^\s()@]+?)):(\d+):(\d+)/g;
  var mapStack = function (stack) {
    if (!stack) return "";
    return String(stack).split("\n").slice(0, 12).map(function (row) {
      return row.replace(FRAME, function (all, url, n) {
        var p = place(url, n);
        if (p) return p[0] + ":" + p[1];
        return url.slice(0, 5) === "data:" ? "(inline code)" : all;
      });
    }).join("\n").slice(0, MAX);
  };
  // The first frame of a stack that is the site's own code.
  var firstPlace = function (stack) {
    var m, re = new RegExp(FRAME.source, "g");
    while ((m = re.exec(String(stack || "")))) {
      var p = place(m[1], m[2]);
      if (p) return p;
    }
    return null;
  };
  var text = function (v) {
    if (typeof v === "string") return v;
    if (v instanceof Error) return v.name + ": " + v.message;
    try { var s = JSON.stringify(v); if (s !== undefined) return s; } catch (e) {}
    try { return String(v); } catch (e) { return "?"; }
  };
  var report = function (level, kind, msg, where, stack) {
    send({
      type: "__WIGGUM_CONSOLE__", level: level, kind: kind, text: String(msg).slice(0, MAX),
      file: where ? where[0] : "", line: where ? where[1] : 0, stack: mapStack(stack),
      page: PAGE
    });
  };
  var suffix = function (p) { return p ? " (" + p[0] + " line " + p[1] + ")" : ""; };

  addEventListener("error", function (e) {
    var t = e && e.target;
    if (t && t !== window && t.nodeType === 1) {
      // A resource that did not load (an image, a script, a stylesheet).
      var url = t.getAttribute("data-src") || t.getAttribute("src") || t.getAttribute("href") || "";
      report("error", "resource", "Failed to load <" + t.localName + "> " + url, null, "");
      return;
    }
    var m = e && e.message ? String(e.message) : String(e && e.error || "error");
    var p = place(e.filename, e.lineno);
    send({type: "__WIGGUM_ERROR__", message: (m + suffix(p)).slice(0, MAX)});
    report("error", "error", m, p, e.error && e.error.stack);
  }, true);
  addEventListener("unhandledrejection", function (e) {
    var r = e && e.reason, m;
    try { m = r && r.message ? String(r.message) : String(r); } catch (x) { m = "?"; }
    send({type: "__WIGGUM_ERROR__", message: ("Unhandled promise rejection: " + m).slice(0, MAX)});
    var stack = r && r.stack;
    report("error", "rejection", "Unhandled promise rejection: " + m, firstPlace(stack), stack);
  });
  document.addEventListener("securitypolicyviolation", function (e) {
    var m = "Content-Security-Policy blocked " + (e.blockedURI || "a resource") +
      " (" + e.violatedDirective + ")";
    report("error", "csp", m, place(e.sourceFile, e.lineNumber), "");
  });
  ["error", "warn", "info", "log", "debug"].forEach(function (level) {
    var real = console[level];
    if (typeof real !== "function") return;
    console[level] = function () {
      real.apply(console, arguments);
      try {
        var parts = Array.prototype.map.call(arguments, text);
        var stack = new Error().stack;
        var shown = level === "debug" ? "log" : level === "info" ? "log" : level;
        report(shown, "console", parts.join(" "), firstPlace(stack),
          level === "error" ? stack : "");
      } catch (x) {}
    };
  });

  var go = function (f) {
    if (!f) { scrollTo(0, 0); return; }
    var el = document.getElementById(f) || document.getElementsByName(f)[0];
    if (el) el.scrollIntoView(); else if (f === "top") scrollTo(0, 0);
  };
  document.addEventListener("click", function (e) {
    if (e.defaultPrevented || e.button !== 0) return;
    var a = e.target && e.target.closest ? e.target.closest("a[href], area[href]") : null;
    if (!a || a.hasAttribute("download")) return;
    var nav = a.getAttribute("data-wiggum-nav"), frag = a.getAttribute("data-wiggum-fragment");
    if (nav !== null) {
      e.preventDefault();
      if (nav) send({type: "__WIGGUM_NAV__", path: frag ? nav + "#" + frag : nav});
    } else if (frag !== null) {
      e.preventDefault();
      go(frag);
    }
  });
  // A form the site's scripts did not handle submits as on a static host: to
  // the page it names (data-wiggum-nav, set by the bundle), else this page.
  addEventListener("submit", function (e) {
    var form = e.target;
    if (e.defaultPrevented || !form || form.localName !== "form") return;
    var nav = form.getAttribute("data-wiggum-nav");
    if (nav === null && form.hasAttribute("action")) return;  // external: a new tab
    e.preventDefault();
    var method = (form.getAttribute("method") || "get").toUpperCase();
    report("log", "console", "Form submitted (" + method + " " + (nav || PAGE) + ")", null, "");
    send({type: "__WIGGUM_NAV__", path: nav || PAGE});
  });
  var start = __WIGGUM_START__;
  if (start) addEventListener("load", function () { go(start); });
  // The preview's select mode (injected/point.js; a no-op function elsewhere).
  __WIGGUM_POINTJS__(__WIGGUM_SECRET__, firstPlace);
})();
