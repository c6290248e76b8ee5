// The browser's audit of a page (at a phone's width for the site checks):
// once the page has loaded and settled for DELAY ms, the outermost elements
// that reach past the frame's width (at most five), posted to the checker
// that loaded it; the runtime has reported the page's errors meanwhile.
addEventListener("load", function () {
  setTimeout(function () {
    var W = document.documentElement.clientWidth, out = [];
    if (document.documentElement.scrollWidth > W + 1) {
      var all = document.body ? document.body.querySelectorAll("*") : [];
      for (var i = 0; i < all.length && out.length < 5; i++) {
        var el = all[i], r = el.getBoundingClientRect(), p = el.parentElement;
        if (r.right <= W + 1 || r.width === 0) continue;
        if (p && p !== document.body && p.getBoundingClientRect().right > W + 1) continue;
        out.push({tag: el.localName, id: el.id || "", cls: el.getAttribute("class") || "",
                  right: Math.round(r.right)});
      }
    }
    parent.postMessage({type: "__WIGGUM_AUDIT__", width: W, overflow: out}, "*");
  }, __WIGGUM_DELAY__);
});
