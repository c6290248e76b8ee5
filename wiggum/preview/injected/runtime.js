(function () {
  "use strict";
  var send = function (m) { try { parent.postMessage(m, "*"); } catch (e) {} };
  var lines = __WIGGUM_LINES__;
  var where = function (e) {
    var n = e.lineno | 0, f = String(e.filename || ""), i;
    if (!n) return "";
    if (f.slice(0, 5) === "data:") {
      var els = document.querySelectorAll("script[data-src]");
      for (i = 0; i < els.length; i++) {
        if (els[i].src === f) return " (" + els[i].getAttribute("data-src") + " line " + n + ")";
      }
      return " (line " + n + ")";
    }
    // Script code ends with a //# sourceURL of its own; its lines count from its start.
    if (Object.prototype.hasOwnProperty.call(lines, f)) {
      return " (" + lines[f][0] + " line " + (n + lines[f][1]) + ")";
    }
    return "";
  };
  addEventListener("error", function (e) {
    var m = e && e.message ? String(e.message) : String(e && e.error || "error");
    m += where(e);
    send({type: "__WIGGUM_ERROR__", message: m.slice(0, 2000)});
  });
  addEventListener("unhandledrejection", function (e) {
    var r = e && e.reason, m;
    try { m = r && r.message ? String(r.message) : String(r); } catch (x) { m = "?"; }
    send({type: "__WIGGUM_ERROR__", message: ("Unhandled promise rejection: " + m).slice(0, 2000)});
  });
  var go = function (f) {
    if (!f) { scrollTo(0, 0); return; }
    var el = document.getElementById(f) || document.getElementsByName(f)[0];
    if (el) el.scrollIntoView(); else if (f === "top") scrollTo(0, 0);
  };
  document.addEventListener("click", function (e) {
    if (e.defaultPrevented || e.button !== 0) return;
    var a = e.target && e.target.closest ? e.target.closest("a[href], area[href]") : null;
    if (!a) return;
    var nav = a.getAttribute("data-wiggum-nav"), frag = a.getAttribute("data-wiggum-fragment");
    if (nav !== null) {
      e.preventDefault();
      if (nav) send({type: "__WIGGUM_NAV__", path: frag ? nav + "#" + frag : nav});
    } else if (frag !== null) {
      e.preventDefault();
      go(frag);
    }
  });
  var start = __WIGGUM_START__;
  if (start) addEventListener("load", function () { go(start); });
})();
