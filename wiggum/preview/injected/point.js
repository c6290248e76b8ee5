(function (SECRET, firstPlace) {
  // Select mode in the preview (wiggum/preview/point.py says why it is built so).
  // Runs inside the runtime, before any of the site's scripts: it keeps the
  // select channel's secret in this closure only, removes its own <script>
  // (the secret is written there), and builds every message as an object
  // literal posted to the parent captured now, so no function or setter the
  // site installs later ever sees the secret.
  "use strict";
  if (!SECRET) return;
  var P = parent;
  var me = document.currentScript;
  if (me && me.parentNode) me.parentNode.removeChild(me);
  var STAMP = "data-wiggum-tag";
  var INSPECTED = __WIGGUM_INSPECTED__;
  var made = new WeakMap();  // element -> "file:line" of the site's script that made it
  var realCreate = Document.prototype.createElement;
  var where = function () {
    var p = firstPlace(new Error().stack);
    return p ? p[0] + ":" + p[1] : "";
  };
  var note = function (el, at) { if (at && el && !made.has(el)) made.set(el, at); };
  var patch = function (proto, name) {
    var real = proto[name];
    if (typeof real !== "function") return;
    proto[name] = function () {
      var el = real.apply(this, arguments);
      try { note(el, where()); } catch (e) {}
      return el;
    };
  };
  patch(Document.prototype, "createElement");
  patch(Document.prototype, "createElementNS");
  var inner = Object.getOwnPropertyDescriptor(Element.prototype, "innerHTML");
  if (inner && inner.set) {
    Object.defineProperty(Element.prototype, "innerHTML", {
      configurable: true, enumerable: inner.enumerable, get: inner.get,
      set: function (v) {
        inner.set.call(this, v);
        try {
          var at = where(), all = this.querySelectorAll("*");
          for (var i = 0; i < all.length; i++) note(all[i], at);
        } catch (e) {}
      }
    });
  }

  var on = false, picked = null, editing = null, original = "";
  var hover = null, label = null, chosen = null;
  var BOX = "all:initial;position:fixed;z-index:2147483647;pointer-events:none;display:none;" +
    "box-sizing:border-box;";
  var ours = function (el) { return el === hover || el === label || el === chosen; };
  var overlay = function () {
    if (hover) return;
    hover = realCreate.call(document, "div");
    chosen = realCreate.call(document, "div");
    label = realCreate.call(document, "div");
    hover.style.cssText = BOX + "outline:2px dashed #2563eb;background:rgba(37,99,235,.08)";
    chosen.style.cssText = BOX + "outline:2px solid #c2410c";
    label.style.cssText = BOX + "background:#1e3a8a;color:#fff;font:12px/1.5 system-ui," +
      "sans-serif;padding:0 6px;border-radius:3px;white-space:nowrap";
    label.setAttribute("data-wiggum-point", "label");
    var root = document.documentElement;
    root.appendChild(hover); root.appendChild(chosen); root.appendChild(label);
  };
  var name = function (el) {
    var s = String(el.localName || "").toLowerCase();
    if (el.id) s += "#" + el.id;
    for (var i = 0; i < el.classList.length && i < 3; i++) s += "." + el.classList[i];
    return s;
  };
  var place = function (box, el) {
    var r = el.getBoundingClientRect();
    box.style.left = r.left + "px"; box.style.top = r.top + "px";
    box.style.width = r.width + "px"; box.style.height = r.height + "px";
    box.style.display = "block";
    return r;
  };
  var show = function (el) {
    overlay();
    if (!el || el.nodeType !== 1 || ours(el)) return;
    var r = place(hover, el);
    label.textContent = name(el) + "  " + Math.round(r.width) + "\u00d7" + Math.round(r.height);
    label.style.left = Math.max(0, r.left) + "px";
    label.style.top = (r.top > 20 ? r.top - 20 : r.bottom + 2) + "px";
    label.style.display = "block";
  };
  var hide = function () {
    if (!hover) return;
    hover.style.display = label.style.display = chosen.style.display = "none";
  };
  var report = function (el, edit) {
    var r = el.getBoundingClientRect(), cs = getComputedStyle(el), styles = {};
    for (var i = 0; i < INSPECTED.length; i++) styles[INSPECTED[i]] = cs.getPropertyValue(INSPECTED[i]);
    var n = el.getAttribute(STAMP), tag = String(el.localName || "").toLowerCase();
    P.postMessage({
      type: "wiggum-point-select", secret: SECRET,
      place: n !== null && /^\d+$/.test(n) ? parseInt(n, 10) : -1,
      tag: tag, id: String(el.id || "").slice(0, 100),
      classes: Array.prototype.slice.call(el.classList, 0, 50).map(function (c) { return c.slice(0, 100); }),
      text: String(el.textContent || "").slice(0, 2000), plain: el.children.length === 0,
      width: r.width, height: r.height, styles: styles,
      href: tag === "a" && el.hasAttribute("href") ? el.getAttribute("href").slice(0, 2000) : null,
      made: n === null ? made.get(el) || "" : "", edit: !!edit
    }, "*");
  };
  var pick = function (el, edit) {
    if (!el || el.nodeType !== 1 || ours(el)) return;
    picked = el;
    overlay();
    place(chosen, el);
    report(el, edit);
  };
  var exit = function () {
    on = false;
    if (editing) cancel();
    hide();
  };

  var commit = function () {
    var el = editing;
    if (!el) return;
    editing = null;
    el.removeAttribute("contenteditable");
    var text = String(el.textContent);
    var n = el.getAttribute(STAMP);
    if (text !== original && n !== null) {
      P.postMessage({type: "wiggum-point-text", secret: SECRET, place: parseInt(n, 10), text: text}, "*");
    }
  };
  var cancel = function () {
    var el = editing;
    if (!el) return;
    editing = null;
    el.textContent = original;
    el.removeAttribute("contenteditable");
  };
  var edit = function () {
    var el = picked;
    if (!el || editing) return;
    editing = el;
    original = String(el.textContent);
    el.setAttribute("contenteditable", "plaintext-only");
    el.addEventListener("blur", function gone() { el.removeEventListener("blur", gone); commit(); });
    el.focus();
    try { getSelection().selectAllChildren(el); } catch (e) {}
    if (hover) hover.style.display = label.style.display = "none";
  };
  var move = function (dir) {
    if (!picked) return;
    var next = dir === "up" ? picked.parentElement
      : dir === "down" ? picked.firstElementChild
      : dir === "prev" ? picked.previousElementSibling : picked.nextElementSibling;
    while (next && ours(next)) next = dir === "prev" ? next.previousElementSibling : next.nextElementSibling;
    if (next && next !== document.documentElement) pick(next, false);
  };

  var inside = function (e) { return editing && e.target && editing.contains(e.target); };
  var block = function (e) {
    if (!on || inside(e)) return;
    e.preventDefault();
    e.stopImmediatePropagation();
  };
  // Not touchstart: a tap must still make the click that selects.
  ["mousedown", "mouseup", "pointerdown", "pointerup", "auxclick", "contextmenu", "submit"]
    .forEach(function (kind) { addEventListener(kind, block, true); });
  addEventListener("mousemove", function (e) { if (on && !editing) show(e.target); }, true);
  addEventListener("click", function (e) {
    if (!on || inside(e)) return;
    block(e);
    if (editing) commit();
    pick(e.target, false);
  }, true);
  addEventListener("dblclick", function (e) {
    if (!on || inside(e)) return;
    block(e);
    pick(e.target, true);
  }, true);
  addEventListener("scroll", function () {
    if (picked && chosen && chosen.style.display === "block") place(chosen, picked);
    if (hover) hover.style.display = label.style.display = "none";
  }, true);
  var ARROWS = {ArrowUp: "up", ArrowDown: "down", ArrowLeft: "prev", ArrowRight: "next"};
  addEventListener("keydown", function (e) {
    if (editing) {
      if (e.key === "Enter" && !e.shiftKey) { e.preventDefault(); e.stopImmediatePropagation(); commit(); }
      else if (e.key === "Escape") { e.preventDefault(); e.stopImmediatePropagation(); cancel(); }
      else e.stopImmediatePropagation();
      return;
    }
    if (!on) return;
    if (e.key === "Escape") {
      e.preventDefault(); e.stopImmediatePropagation();
      exit();
      P.postMessage({type: "wiggum-point-exit", secret: SECRET}, "*");
    } else if (Object.prototype.hasOwnProperty.call(ARROWS, e.key)) {
      e.preventDefault(); e.stopImmediatePropagation();
      move(ARROWS[e.key]);
    }
  }, true);
  addEventListener("message", function (e) {
    var d = e.data;
    if (e.source !== P || !d || d.type !== "__WIGGUM_TO_FRAME__") return;
    e.stopImmediatePropagation();
    if (d.op === "on") { on = true; overlay(); }
    else if (d.op === "off") exit();
    else if (d.op === "move") move(String(d.dir));
    else if (d.op === "edit") edit();
    else if (d.op === "pick") {
      var el = document.querySelector("[" + STAMP + '="' + (d.place | 0) + '"]');
      if (el) pick(el, false);
    }
  }, true);
})
