// The landing page's only script before the first paint (scripts/prerender-landing.mjs copies it to dist/
// and names it in the prerendered page; a classic deferred script, as the CSP allows no inline script). The
// prerendered HTML is the whole first screen, and its buttons are plain forms (/?start=…) that work without
// JavaScript, so nothing competes with the first paint: the app (React, the router, the wizard) is fetched
// and run when the visitor starts to interact (a touch, a pointer press or hover, a key, focus), and on
// desktop also once the page has loaded (see below).
// A tap on a button or an internal link that comes before the app is live is held and replayed once main.tsx
// reports the landing hydrated ('app-live'); if the app does not come up, the tap goes through as the plain
// form or link it is.
(function () {
  var me = document.currentScript;
  var entry = me.getAttribute('data-entry');
  var preload = (me.getAttribute('data-preload') || '').split(' ').filter(Boolean);
  var root = document.getElementById('root');
  var held = [];
  var live = false;
  var started = false;
  var GIVE_UP_MS = 10000;

  function release() {
    if (live) return;
    live = true;
    document.removeEventListener('click', hold, true);
    held.splice(0).forEach(function (el) {
      el.removeAttribute('aria-busy');
      el.removeAttribute('data-held');
      if (el.isConnected) el.click();
    });
  }

  // The entry and every chunk hydration needs, fetched in parallel (modulepreload), then the entry run.
  function start() {
    if (started) return;
    started = true;
    var nodes = document.createDocumentFragment();
    preload.forEach(function (href) {
      var link = document.createElement('link');
      link.rel = 'modulepreload';
      link.crossOrigin = '';
      link.href = href;
      nodes.appendChild(link);
    });
    var script = document.createElement('script');
    script.type = 'module';
    script.crossOrigin = '';
    script.src = entry;
    script.onerror = release;
    nodes.appendChild(script);
    document.head.appendChild(nodes);
  }

  function hold(event) {
    if (live || !(event.target instanceof Element)) return;
    var target = event.target.closest('button, a[href^="/"]');
    if (!target || !root.contains(target)) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    if (held.indexOf(target) < 0) held.push(target);
    // The tap is taken: the button says it is working until the app has started.
    target.setAttribute('aria-busy', 'true');
    target.setAttribute('data-held', '');
    start();
    setTimeout(release, GIVE_UP_MS);
  }

  document.addEventListener('click', hold, true);
  window.addEventListener('app-live', release, { once: true });
  ['pointerdown', 'pointerover', 'touchstart', 'keydown', 'focusin'].forEach(function (type) {
    document.addEventListener(type, start, { capture: true, once: true, passive: true });
  });

  // On desktop the app also starts once the page has loaded: it adds the looping video there (spec 000 §2;
  // LandingVideo's query). A phone shows no video and its backgrounds rotate by CSS until the app runs, so it
  // fetches nothing more until the visitor touches the page (a scroll's first touch starts it too). Even a
  // prefetch after load cost about 250 ms of Lighthouse's blocking time here (bench:landing, 3 runs each).
  function whenIdle() {
    if ('requestIdleCallback' in window) requestIdleCallback(start, { timeout: 1000 });
    else setTimeout(start, 0);
  }
  if (window.matchMedia('(min-width: 1024px)').matches) {
    if (document.readyState === 'complete') whenIdle();
    else window.addEventListener('load', whenIdle, { once: true });
  }
})();
