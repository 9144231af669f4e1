"use strict";
(function () {
  const table = document.getElementById("tasks");
  const tbody = table ? table.tBodies[0] : null;

  // Sorting: click a header with data-sort; numbers compare as numbers.
  if (table) {
    table.querySelectorAll("th[data-sort]").forEach((th) => {
      th.addEventListener("click", () => {
        const key = th.dataset.sort;
        const numeric = th.dataset.type === "n";
        const dir = th.classList.contains("asc") ? -1 : 1;
        table.querySelectorAll("th").forEach((h) => h.classList.remove("asc", "desc"));
        th.classList.add(dir === 1 ? "asc" : "desc");
        const rows = Array.from(tbody.rows);
        rows.sort((a, b) => {
          const x = a.dataset[key], y = b.dataset[key];
          const c = numeric ? parseFloat(x) - parseFloat(y) : x.localeCompare(y);
          return c * dir;
        });
        rows.forEach((r) => tbody.appendChild(r));
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
  async function openFromHash() {
    const m = /^#trial-(\d+)$/.exec(location.hash);
    if (!m || !view) {
      if (view) view.classList.remove("open");
      return;
    }
    const blob = document.getElementById("blob-" + m[1]);
    if (!blob) return;
    title.textContent = blob.dataset.title;
    body.innerHTML = "<p class=\"na\">loading…</p>";
    view.classList.add("open");
    body.innerHTML = await expand(blob);
    view.dataset.loaded = m[1];
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
