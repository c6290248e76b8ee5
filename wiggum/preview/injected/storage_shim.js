(function () {
  "use strict";
  // The site's own localStorage, sessionStorage and document.cookie.  The
  // frame's origin is opaque (never Wiggum's), where the browser's own throw
  // SecurityError, so these answer synchronously from the project's snapshot
  // and post every change, whole, to the preview for it to keep.
  var seed = __WIGGUM_STORAGE__;
  var CAP = __WIGGUM_CAP__;
  var KIND = "__WIGGUM_KIND__";
  var send = function (area, items) {
    try { parent.postMessage({type: KIND, area: area, items: items}, "*"); } catch (e) {}
  };
  var store = function (area) {
    var data = new Map(), pending = false, k;
    var initial = seed[area] || {};
    for (k in initial) {
      if (Object.prototype.hasOwnProperty.call(initial, k)) data.set(k, String(initial[k]));
    }
    var flush = function () {
      pending = false;
      var out = {};
      data.forEach(function (v, key) { out[key] = v; });
      send(area, out);
    };
    var changed = function () {
      if (!pending) { pending = true; Promise.resolve().then(flush); }
    };
    var used = function () {
      var n = 0;
      data.forEach(function (v, key) { n += key.length + v.length; });
      return n;
    };
    return {data: data, changed: changed, used: used};
  };

  var storage = function (area) {
    var s = store(area), data = s.data;
    var api = {
      getItem: function (key) { key = String(key); return data.has(key) ? data.get(key) : null; },
      setItem: function (key, value) {
        key = String(key); value = String(value);
        var old = data.has(key) ? key.length + data.get(key).length : 0;
        if (s.used() - old + key.length + value.length > CAP) {
          throw new DOMException(
            "Setting the value of '" + key + "' exceeded the quota.", "QuotaExceededError");
        }
        if (data.get(key) === value) return;
        data.set(key, value);
        s.changed();
      },
      removeItem: function (key) { if (data.delete(String(key))) s.changed(); },
      clear: function () { if (data.size) { data.clear(); s.changed(); } },
      key: function (i) {
        i = Number(i) >>> 0;
        var keys = Array.from(data.keys());
        return i < keys.length ? keys[i] : null;
      }
    };
    Object.defineProperty(api, "length", {
      configurable: true, get: function () { return data.size; }
    });
    if (window.Storage) Object.setPrototypeOf(api, Storage.prototype);
    var own = function (p) { return Object.prototype.hasOwnProperty.call(api, p); };
    // Named properties (localStorage.todos, localStorage["todos"]), as a real Storage.
    return new Proxy(api, {
      get: function (t, p) {
        if (typeof p === "symbol" || own(p)) return Reflect.get(t, p);
        if (data.has(p)) return data.get(p);
        return Reflect.get(t, p);
      },
      set: function (t, p, v) {
        if (typeof p === "symbol") return Reflect.set(t, p, v);
        api.setItem(p, v);
        return true;
      },
      deleteProperty: function (t, p) {
        if (typeof p !== "symbol") api.removeItem(p);
        return true;
      },
      has: function (t, p) { return (typeof p === "string" && data.has(p)) || p in t; },
      ownKeys: function () { return Array.from(data.keys()); },
      getOwnPropertyDescriptor: function (t, p) {
        if (typeof p !== "string" || !data.has(p)) return undefined;
        return {value: data.get(p), writable: true, enumerable: true, configurable: true};
      }
    });
  };

  var install = function (target, name, desc) {
    try { Object.defineProperty(target, name, desc); } catch (e) {}
  };
  var local = storage("local"), session = storage("session");
  install(window, "localStorage", {configurable: true, enumerable: true, get: function () {
    return local;
  }});
  install(window, "sessionStorage", {configurable: true, enumerable: true, get: function () {
    return session;
  }});

  // document.cookie: name=value pairs; max-age<=0 or a past expires deletes one.
  var jar = store("cookie");
  install(document, "cookie", {
    configurable: true,
    enumerable: true,
    get: function () {
      var out = [];
      jar.data.forEach(function (v, k) { out.push(k ? k + "=" + v : v); });
      return out.join("; ");
    },
    set: function (text) {
      var parts = String(text).split(";"), first = parts[0], eq = first.indexOf("=");
      var name = (eq < 0 ? "" : first.slice(0, eq)).trim();
      var value = (eq < 0 ? first : first.slice(eq + 1)).trim();
      var gone = false;
      for (var i = 1; i < parts.length; i++) {
        var attr = parts[i].trim(), at = attr.indexOf("=");
        var key = (at < 0 ? attr : attr.slice(0, at)).trim().toLowerCase();
        var val = at < 0 ? "" : attr.slice(at + 1).trim();
        if (key === "max-age" && Number(val) <= 0) gone = true;
        if (key === "expires" && Date.parse(val) <= Date.now()) gone = true;
      }
      if (gone) {
        if (jar.data.delete(name)) jar.changed();
      } else if (jar.used() + name.length + value.length <= CAP) {
        jar.data.set(name, value);
        jar.changed();
      }
    }
  });
})();
