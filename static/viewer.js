// The "Open in new tab" viewer (wiggum/web/views/workspace/preview_tools.py).
// It hosts the site in a sandboxed frame (scripts, never same-origin), takes
// pages only from the Wiggum window that opened it, and passes the site's
// link clicks back to it.  Plain JS: this page must not load the app.
(function () {
  "use strict";
  var frame = document.getElementById("frame");
  var pathEl = document.getElementById("path");
  var errors = document.getElementById("errors");
  var opener = window.opener;
  var origin = location.origin;
  var html = null;  // the page the current frame gets when its host page is ready
  function say(text) { pathEl.textContent = text; }
  if (!opener) {
    say("Open this page with \u201cOpen in new tab\u201d in Wiggum's preview.");
    return;
  }
  window.addEventListener("message", function (event) {
    var data = event.data;
    if (!data || typeof data !== "object") return;
    if (event.source === opener && event.origin === origin && data.type === "wiggum-viewer-page") {
      if (typeof data.html !== "string" || typeof data.path !== "string") return;
      say(data.path);
      document.title = data.path + " \u2013 Wiggum preview";
      errors.replaceChildren();
      // A fresh frame per page (as in the app's preview) on the host page
      // preview.html, which is posted the page once it says it is ready
      // (wiggum/web/preview_host.py says why not srcdoc).
      html = data.html;
      var next = frame.cloneNode(false);
      next.src = "preview.html";
      frame.replaceWith(next);
      frame = next;
    } else if (event.source === frame.contentWindow) {
      if (data.type === "wiggum-preview-ready" && html !== null) {
        frame.contentWindow.postMessage({ type: "wiggum-preview-page", html: html }, "*");
      } else if (data.type === "wiggum-preview-nav" && typeof data.path === "string") {
        opener.postMessage({ type: "wiggum-viewer-nav", path: data.path.slice(0, 2048) }, origin);
      } else if (data.type === "wiggum-preview-error" && typeof data.message === "string") {
        if (errors.children.length < 50) {
          var li = document.createElement("li");
          li.textContent = data.message.slice(0, 2000);
          errors.appendChild(li);
        }
      }
    }
  });
  opener.postMessage({ type: "wiggum-viewer-ready" }, origin);
})();
