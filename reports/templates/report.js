"use strict";
(function () {
  const table = document.getElementById("tasks");
  const tbody = table ? table.tBodies[0] : null;

  // Sorting: click a header with data-sort; numbers compare as numbers. Every page's main
  // table (#tasks) and any table marked .sortable.
  document.querySelectorAll("table#tasks, table.sortable").forEach((t) => {
    const body = t.tBodies[0];
    t.querySelectorAll("th[data-sort]").forEach((th) => {
      th.addEventListener("click", () => {
        const key = th.dataset.sort;
        const numeric = th.dataset.type === "n";
        const dir = th.classList.contains("asc") ? -1 : 1;
        t.querySelectorAll("th").forEach((h) => h.classList.remove("asc", "desc"));
        th.classList.add(dir === 1 ? "asc" : "desc");
        const rows = Array.from(body.rows);
        rows.sort((a, b) => {
          const x = a.dataset[key], y = b.dataset[key];
          const c = numeric ? parseFloat(x) - parseFloat(y) : x.localeCompare(y);
          return c * dir;
        });
        rows.forEach((r) => body.appendChild(r));
      });
    });
  });

  // The leaderboard's task × model matrix: only the tasks where the rows differ.
  const differ = document.getElementById("only-differ");
  const tm = document.getElementById("task-matrix");
  if (differ && tm) {
    differ.addEventListener("change", () => {
      Array.from(tm.tBodies[0].rows).forEach((r) => {
        r.style.display = differ.checked && parseFloat(r.dataset.spread) === 0 ? "none" : "";
      });
    });
  }

  // Filtering by category, status and id.
  const fc = document.getElementById("f-category");
  const fs = document.getElementById("f-status");
  const fq = document.getElementById("f-search");
  const count = document.getElementById("visible-count");
  function applyFilters() {
    if (!tbody) return;
    let shown = 0;
    const q = fq ? fq.value.trim().toLowerCase() : "";
    Array.from(tbody.rows).forEach((r) => {
      const ok = (!fc || !fc.value || r.dataset.category === fc.value) &&
        (!fs || !fs.value || r.dataset.status === fs.value) &&
        (!q || r.dataset.id.toLowerCase().includes(q));
      r.hidden = !ok;
      if (ok) shown++;
    });
    if (count) count.textContent = String(shown);
  }
  [fc, fs].forEach((e) => e && e.addEventListener("change", applyFilters));
  if (fq) fq.addEventListener("input", applyFilters);

  // Trial views: base64 → gzip → HTML, expanded on demand.
  const view = document.getElementById("trial-view");
  const body = document.getElementById("trial-body");
  const title = document.getElementById("trial-title");
  async function expand(blob) {
    const bin = atob(blob.textContent.trim());
    const bytes = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
    return await new Response(stream).text();
  }
  // `#trial-<n>` (the n-th record) or `#task=<id>&trial=<n>` (what other pages link to:
  // it names the trial, so it holds whatever order the records are in).
  function blobFromHash() {
    const m = /^#trial-(\d+)$/.exec(location.hash);
    if (m) return document.getElementById("blob-" + m[1]);
    const p = new URLSearchParams(location.hash.slice(1));
    if (!p.has("task") || !p.has("trial")) return null;
    return Array.from(document.querySelectorAll("script[data-task]"))
      .find((b) => b.dataset.task === p.get("task") && b.dataset.trial === p.get("trial")) || null;
  }
  async function openFromHash() {
    const blob = view ? blobFromHash() : null;
    if (!blob) {
      if (view) view.classList.remove("open");
      return;
    }
    title.textContent = blob.dataset.title;
    body.innerHTML = "<p class=\"na\">loading…</p>";
    view.classList.add("open");
    body.innerHTML = await expand(blob);
    view.dataset.loaded = blob.id.slice("blob-".length);
    view.scrollIntoView({ block: "start" });
  }
  function failed(e) {
    if (body) body.textContent = "cannot open this trial: " + e;
    console.error("nab report: cannot open a trial view:", e);
  }
  window.addEventListener("hashchange", () => { openFromHash().catch(failed); });
  const close = document.getElementById("trial-close");
  if (close) close.addEventListener("click", () => { history.pushState(null, "", location.pathname); view.classList.remove("open"); });
  openFromHash().catch(failed);
})();
