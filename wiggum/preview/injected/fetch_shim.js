(function () {
  "use strict";
  // Project files answered in-frame: the frame's origin is opaque and the files
  // live only in Wiggum's IndexedDB, so no request could reach them.
  var P = __WIGGUM_PROJECT__;
  var BASE = "wiggum-preview://project/";
  var files = Object.create(null), over = Object.create(null), i;
  for (i = 0; i < P.files.length; i++) files[P.files[i][0]] = P.files[i];
  for (i = 0; i < P.over.length; i++) over[P.over[i][0]] = P.over[i][1];
  var pageDir = P.page.split("/").slice(0, -1);
  var pageURL = BASE + encodeURI(P.page);
  // The document's base URL is Wiggum's preview host page (static/preview.html,
  // which wrote this page over itself), so relative URLs the browser resolved
  // itself (Request, a.href, import.meta.url of inline modules) arrive
  // absolute under that folder.
  var parentDir = "";
  try {
    var b = String(document.baseURI || "");
    if (/^https?:/i.test(b)) parentDir = b.replace(/[?#].*$/, "").replace(/[^\/]*$/, "");
  } catch (e) {}
  var size = function (n) {
    return n >= 1048576 ? (n / 1048576).toFixed(1) + " MiB" : Math.ceil(n / 1024) + " KiB";
  };
  var warn = function (m) { try { console.warn("[wiggum preview] " + m); } catch (e) {} };

  // The project path a URL names, or null when it is not the project's.
  var resolve = function (input) {
    var u = String(input).trim(), rel, n = parentDir.length;
    if (u.slice(0, BASE.length).toLowerCase() === BASE) rel = "/" + u.slice(BASE.length);
    else if (n && u.slice(0, n) === parentDir) rel = u.slice(n);
    else if (/^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(u) || /^[\/\\]{2}/.test(u)) return null;
    else rel = u;
    rel = rel.replace(/\\/g, "/").split("#")[0].split("?")[0];
    var parts = rel.charAt(0) === "/" ? [] : pageDir.slice(), segs = rel.split("/"), s = "";
    for (var k = 0; k < segs.length; k++) {
      s = segs[k];
      try { s = decodeURIComponent(s); } catch (e) {}
      if (s === "..") parts.pop(); else if (s !== "." && s !== "") parts.push(s);
    }
    var path = parts.join("/");
    if (s === "" || s === "." || s === "..") return path ? path + "/index.html" : "index.html";
    return path;
  };
  var find = function (path) {
    if (files[path]) return path;
    // A static host answers a folder with its index.html.
    if (files[path + "/index.html"]) return path + "/index.html";
    return null;
  };
  var cache = Object.create(null);
  var bytes = function (path) {
    if (!cache[path]) {
      var e = files[path], a;
      if (e[2]) {
        var s = atob(e[3]);
        a = new Uint8Array(s.length);
        for (var k = 0; k < s.length; k++) a[k] = s.charCodeAt(k);
      } else {
        a = new TextEncoder().encode(e[3]);
      }
      cache[path] = a;
    }
    return cache[path];
  };
  var text = function (path) {
    return files[path][2] ? new TextDecoder().decode(bytes(path)) : files[path][3];
  };
  var STATUS = {200: "OK", 404: "Not Found", 405: "Method Not Allowed"};
  // What a static host would answer: {status, path, mime}.
  var answer = function (path, method) {
    method = String(method || "GET").toUpperCase();
    if (method !== "GET" && method !== "HEAD") {
      warn(method + " " + path + ": 405, the preview serves project files read-only");
      return {status: 405, path: path, mime: "text/plain"};
    }
    var hit = find(path);
    if (hit !== null) return {status: 200, path: hit, mime: files[hit][1]};
    if (over[path] !== undefined) {
      warn(path + " (" + size(over[path]) + "): 404 in the preview only. The preview " +
           "embeds at most " + size(P.cap) + " of project files for requests made by " +
           "scripts and this one did not fit; a real web server would serve it.");
    } else {
      warn(method + " " + path + ": 404, no such file in the project");
    }
    return {status: 404, path: path, mime: "text/plain"};
  };
  var body = function (a) {
    return a.status === 200 ? bytes(a.path) : new TextEncoder().encode(STATUS[a.status]);
  };

  var realFetch = window.fetch;
  if (realFetch) {
    window.fetch = function fetch(input, init) {
      var req = typeof Request === "function" && input instanceof Request;
      var path = resolve(req ? input.url : input);
      if (path === null) return realFetch.apply(window, arguments);
      var method = String((init && init.method) || (req ? input.method : "GET")).toUpperCase();
      var signal = (init && init.signal) || (req ? input.signal : null);
      if (signal && signal.aborted) {
        return Promise.reject(signal.reason !== undefined ? signal.reason
          : new DOMException("The operation was aborted.", "AbortError"));
      }
      try {
        var a = answer(path, method), data = body(a);
        var r = new Response(method === "HEAD" ? null : data, {
          status: a.status,
          statusText: STATUS[a.status],
          headers: {"Content-Type": a.mime, "Content-Length": String(data.length)}
        });
        try { Object.defineProperty(r, "url", {value: BASE + encodeURI(a.path)}); } catch (e) {}
        return Promise.resolve(r);
      } catch (e) {
        return Promise.reject(e);
      }
    };
  }

  var RealXHR = window.XMLHttpRequest;
  if (RealXHR) {
    // Per-request state of the XHRs this shim answers (none for the others).
    var S = new WeakMap();
    var fire = function (x, type, n) {
      x.dispatchEvent(type === "readystatechange" ? new Event(type)
        : new ProgressEvent(type, {lengthComputable: n > 0, loaded: n || 0, total: n || 0}));
    };
    var invalid = function (m) { return new DOMException(m, "InvalidStateError"); };
    var ProjectXHR = class XMLHttpRequest extends RealXHR {
      open(method, url, async) {
        var path = resolve(url);
        if (path === null) {
          S.delete(this);
          return super.open.apply(this, arguments);
        }
        if (super.readyState !== 0) super.abort();
        S.set(this, {
          method: String(method).toUpperCase(), path: path, async: arguments.length < 3 || !!async,
          state: 1, sent: false, a: null, value: undefined
        });
        fire(this, "readystatechange");
      }
      send(data) {
        var s = S.get(this);
        if (!s) return super.send.apply(this, arguments);
        if (s.state !== 1 || s.sent) throw invalid("The object's state must be OPENED.");
        s.sent = true;
        var x = this;
        var done = function () {
          if (S.get(x) !== s || !s.sent) return;
          s.a = answer(s.path, s.method);
          var n = s.method === "HEAD" ? 0 : body(s.a).length;
          s.state = 2;
          fire(x, "readystatechange");
          s.state = 3;
          fire(x, "readystatechange");
          fire(x, "progress", n);
          s.state = 4;
          fire(x, "readystatechange");
          fire(x, "load", n);
          fire(x, "loadend", n);
        };
        if (s.async) {
          fire(this, "loadstart");
          setTimeout(done, 0);
        } else {
          done();
        }
      }
      abort() {
        var s = S.get(this);
        if (!s) return super.abort();
        var pending = s.sent && s.state !== 4;
        s.sent = false;
        s.a = null;
        if (pending) {
          s.state = 4;
          fire(this, "readystatechange");
          fire(this, "abort");
          fire(this, "loadend");
        }
        s.state = 0;
      }
      setRequestHeader(name, value) {
        var s = S.get(this);
        if (!s) return super.setRequestHeader(name, value);
        if (s.state !== 1 || s.sent) throw invalid("The object's state must be OPENED.");
      }
      getResponseHeader(name) {
        var s = S.get(this);
        if (!s) return super.getResponseHeader(name);
        if (!s.a) return null;
        name = String(name).toLowerCase();
        if (name === "content-type") return s.a.mime;
        if (name === "content-length") return String(body(s.a).length);
        return null;
      }
      getAllResponseHeaders() {
        var s = S.get(this);
        if (!s) return super.getAllResponseHeaders();
        if (!s.a) return "";
        return "content-length: " + body(s.a).length + "\r\ncontent-type: " + s.a.mime + "\r\n";
      }
      get readyState() { var s = S.get(this); return s ? s.state : super.readyState; }
      get status() { var s = S.get(this); return s ? (s.a ? s.a.status : 0) : super.status; }
      get statusText() {
        var s = S.get(this);
        return s ? (s.a ? STATUS[s.a.status] : "") : super.statusText;
      }
      get responseURL() {
        var s = S.get(this);
        return s ? (s.a ? BASE + encodeURI(s.a.path) : "") : super.responseURL;
      }
      get responseText() {
        var s = S.get(this);
        if (!s) return super.responseText;
        var t = this.responseType;
        if (t !== "" && t !== "text") {
          throw invalid("responseText needs responseType '' or 'text' (was '" + t + "').");
        }
        if (!s.a || s.state < 3 || s.method === "HEAD") return "";
        return s.a.status === 200 ? text(s.a.path) : STATUS[s.a.status];
      }
      get response() {
        var s = S.get(this);
        if (!s) return super.response;
        var t = this.responseType;
        if (t === "" || t === "text") return this.responseText;
        if (!s.a || s.state !== 4) return null;
        if (s.value === undefined) {
          var raw = s.method === "HEAD" ? new Uint8Array(0) : body(s.a);
          var str = function () { return new TextDecoder().decode(raw); };
          if (t === "json") {
            try { s.value = JSON.parse(str()); } catch (e) { s.value = null; }
          } else if (t === "arraybuffer") {
            s.value = raw.slice().buffer;
          } else if (t === "blob") {
            s.value = new Blob([raw], {type: s.a.mime});
          } else if (t === "document") {
            s.value = parse(str(), s.a.mime, true);
          } else {
            s.value = null;
          }
        }
        return s.value;
      }
      get responseXML() {
        var s = S.get(this);
        if (!s) return super.responseXML;
        var t = this.responseType;
        if (t === "document") return this.response;
        if (t !== "" || !s.a || s.state !== 4 || s.a.status !== 200) return null;
        return parse(text(s.a.path), s.a.mime, false);
      }
    };
    var parse = function (str, mime, html) {
      var xml = /[\/+]xml$/.test(mime);
      if (!xml && !(html && mime === "text/html")) return null;
      try { return new DOMParser().parseFromString(str, xml ? "application/xml" : "text/html"); }
      catch (e) { return null; }
    };
    window.XMLHttpRequest = ProjectXHR;
  }

  // new URL("x.json", location.href): location.href is the host page's URL
  // (about:srcdoc in a srcdoc frame), so the page's project URL stands in for it.
  var RealURL = window.URL;
  if (RealURL) {
    var here = String(location.href).replace(/[?#].*$/, "");
    var base = function (b) {
      var s = String(b), bare = s.replace(/[?#].*$/, "");
      return bare === "about:srcdoc" || bare === here ? pageURL : b;
    };
    var ProjectURL = function URL(url, b) {
      if (!new.target) throw new TypeError("Failed to construct 'URL': use the 'new' operator.");
      return b === undefined ? new RealURL(url) : new RealURL(url, base(b));
    };
    Object.setPrototypeOf(ProjectURL, RealURL);
    ProjectURL.prototype = RealURL.prototype;
    ["canParse", "parse"].forEach(function (name) {
      var f = RealURL[name];
      if (f) {
        ProjectURL[name] = function (url, b) {
          return b === undefined ? f.call(RealURL, url) : f.call(RealURL, url, base(b));
        };
      }
    });
    window.URL = ProjectURL;
  }

  // Images and media whose src is set from script: a blob: URL of the
  // embedded file (the bundle only rewrote the ones written in the HTML).
  var blobs = Object.create(null);
  var asset = function (value) {
    var path = resolve(value);
    if (path === null) return null;
    var hit = find(path);
    if (hit === null) {
      if (over[path] !== undefined) answer(path, "GET");
      return null;
    }
    if (!blobs[hit]) {
      blobs[hit] = RealURL.createObjectURL(new Blob([bytes(hit)], {type: files[hit][1]}));
    }
    return blobs[hit];
  };
  var hook = function (proto, name) {
    var d = proto && Object.getOwnPropertyDescriptor(proto, name);
    if (!d || !d.set) return;
    Object.defineProperty(proto, name, {
      configurable: true,
      enumerable: d.enumerable,
      get: d.get,
      set: function (v) { d.set.call(this, asset(v) || v); }
    });
  };
  hook(window.HTMLImageElement && HTMLImageElement.prototype, "src");
  hook(window.HTMLMediaElement && HTMLMediaElement.prototype, "src");
  hook(window.HTMLSourceElement && HTMLSourceElement.prototype, "src");
  hook(window.HTMLVideoElement && HTMLVideoElement.prototype, "poster");
  var RealAudio = window.Audio;
  if (RealAudio) {
    var ProjectAudio = function Audio(src) {
      return src === undefined ? new RealAudio() : new RealAudio(asset(src) || src);
    };
    ProjectAudio.prototype = RealAudio.prototype;
    window.Audio = ProjectAudio;
  }
  // Markup added later (innerHTML, setAttribute) goes through the parser, not
  // the setters above.
  var realSet = Element.prototype.setAttribute;
  var ATTRS = {img: ["src"], audio: ["src"], video: ["src", "poster"], source: ["src"]};
  var fix = function (el) {
    var names = ATTRS[el.localName];
    if (!names) return;
    for (var k = 0; k < names.length; k++) {
      var v = el.getAttribute(names[k]);
      var u = v === null ? null : asset(v);
      if (u) realSet.call(el, names[k], u);
    }
  };
  if (window.MutationObserver) {
    new MutationObserver(function (records) {
      for (var r = 0; r < records.length; r++) {
        var rec = records[r];
        if (rec.type === "attributes") { fix(rec.target); continue; }
        for (var n = 0; n < rec.addedNodes.length; n++) {
          var node = rec.addedNodes[n];
          if (node.nodeType !== 1) continue;
          fix(node);
          var inner = node.querySelectorAll("img, audio, video, source");
          for (var q = 0; q < inner.length; q++) fix(inner[q]);
        }
      }
    }).observe(document, {
      childList: true, subtree: true, attributes: true, attributeFilter: ["src", "poster"]
    });
  }
})();
