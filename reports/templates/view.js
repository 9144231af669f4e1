"use strict";
// nab view: filter and sort the runs table, show one run's trials, compare two runs. The
// data come from folders anyone may have written, so text is only ever set with
// textContent and links only from the hrefs nab encoded.
(function () {
  const data = JSON.parse(document.getElementById("view-data").textContent);
  const table = document.getElementById("runs");
  if (!table) return;
  const tbody = table.tBodies[0];

  function el(tag, attrs, ...children) {
    const e = document.createElement(tag);
    Object.entries(attrs || {}).forEach(([k, v]) => e.setAttribute(k, v));
    children.forEach((c) => e.append(c instanceof Node ? c : String(c)));
    return e;
  }
  const pct = (v) => (v === null || v === undefined || isNaN(v) ? "—" : (v * 100).toFixed(1) + "%");
  const usd = (v) => (v === null || v === undefined ? "—" : "$" + (v >= 1 ? v.toFixed(2) : v.toFixed(4)));
  const label = (r) => (r.path || ".");

  // Sorting: first click ascending, then descending; a missing number sorts last.
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
        if (numeric) {
          const p = parseFloat(x), q = parseFloat(y);
          if (isNaN(p) || isNaN(q)) return isNaN(p) - isNaN(q);
          return (p - q) * dir;
        }
        return x.localeCompare(y) * dir;
      });
      rows.forEach((r) => tbody.appendChild(r));
    });
  });

  // Filtering: every word must appear in the row's folder, run id, agent, model, date or sweep.
  const filter = document.getElementById("filter");
  const shown = document.getElementById("shown");
  function applyFilter() {
    const words = filter.value.trim().toLowerCase().split(/\s+/).filter(Boolean);
    let n = 0;
    Array.from(tbody.rows).forEach((r) => {
      const ok = words.every((w) => r.dataset.text.includes(w));
      r.hidden = !ok;
      if (ok) n++;
    });
    shown.textContent = String(n);
  }
  filter.addEventListener("input", applyFilter);
  document.querySelectorAll("button.only-sweep").forEach((b) => {
    b.addEventListener("click", () => {
      filter.value = b.dataset.path;
      applyFilter();
      table.scrollIntoView({ block: "start" });
    });
  });

  // One run's trials, each linking to its view in the run's report.
  const trials = document.getElementById("trials");
  function showTrials(i) {
    const r = data.runs[i];
    document.getElementById("trials-title").textContent =
      "Trials of " + label(r) + " (" + (r.agent || "—") + " · " + (r.model || "—") + ")";
    document.getElementById("trials-note").textContent = r.report
      ? "Each trial opens in the run's report, at its trajectory, diff and test output."
      : "This run has no report.html yet, so its trials cannot be opened; write it with: " + r.report_command;
    const body = document.getElementById("trials-table").tBodies[0];
    body.replaceChildren();
    r.per_task.forEach((t) => {
      const cells = el("td", { "class": "trial-links" });
      t.runs.forEach((tr) => {
        const title = t.id + " · trial " + tr.trial + " · " + tr.status;
        const attrs = { "class": "tl " + tr.status, "title": title, "data-task": t.id, "data-trial": String(tr.trial) };
        if (r.report) attrs.href = r.report + "#trial-" + tr.idx;
        cells.append(el(r.report ? "a" : "span", attrs, String(tr.trial)));
      });
      body.append(el("tr", { "data-task": t.id }, el("td", {}, el("code", {}, t.id)),
        el("td", { "class": "n" }, t.passed + " / " + t.trials + (t.errors ? " (" + t.errors + " errors)" : "")), cells));
    });
    trials.hidden = false;
    trials.scrollIntoView({ block: "start" });
  }
  tbody.querySelectorAll("button.show-trials").forEach((b) => {
    b.addEventListener("click", () => showTrials(Number(b.closest("tr").dataset.idx)));
  });

  // Comparing two runs: the first ticked is the baseline, the second the candidate.
  let picked = [];
  const compare = document.getElementById("compare");
  function rowOf(i) { return tbody.querySelector("tr[data-idx=\"" + i + "\"]"); }
  tbody.querySelectorAll("input.pick").forEach((box) => {
    box.addEventListener("change", () => {
      const i = Number(box.closest("tr").dataset.idx);
      picked = picked.filter((p) => p !== i);
      if (box.checked) picked.push(i);
      while (picked.length > 2) {
        const old = picked.shift();
        rowOf(old).querySelector("input.pick").checked = false;
      }
      Array.from(tbody.rows).forEach((r) => r.classList.toggle("picked", picked.includes(Number(r.dataset.idx))));
      renderCompare();
    });
  });
  document.getElementById("compare-swap").addEventListener("click", () => {
    picked.reverse();
    renderCompare();
  });
  document.getElementById("compare-differ").addEventListener("change", renderCompare);

  // As nab's own quoting (view/command.rs): plain words as they are, the rest single-quoted.
  function shq(s) { return /^[A-Za-z0-9_\/.,:=+@-]+$/.test(s) ? s : "'" + s.replace(/'/g, "'\\''") + "'"; }

  function renderCompare() {
    if (picked.length !== 2) { compare.hidden = true; return; }
    const [a, b] = picked.map((i) => data.runs[i]);
    document.getElementById("compare-title").textContent =
      "Comparing " + label(a) + " (baseline) with " + label(b) + " (candidate)";
    const tasksA = new Map(a.per_task.map((t) => [t.id, t]));
    const common = b.per_task.filter((t) => tasksA.has(t.id)).map((t) => [tasksA.get(t.id), t]);
    const rate = (t) => (t.trials ? t.passed / t.trials : NaN);
    const mean = (side) => (common.length ? common.reduce((s, p) => s + rate(p[side]), 0) / common.length : NaN);
    const side = document.getElementById("compare-side").tBodies[0];
    side.replaceChildren();
    [["agent", (r) => r.agent || "—"], ["model", (r) => r.model || "—"], ["run", (r) => r.run_id || "—"],
     ["started", (r) => r.date || "—"], ["tasks / trials", (r) => r.tasks + " / " + r.trials],
     ["pass rate (all its tasks)", (r) => pct(r.pass_rate)], ["trials passed", (r) => String(r.passed_trials)],
     ["errors", (r) => String(r.error_trials)], ["cost", (r) => usd(r.cost_usd)]].forEach(([k, f]) => {
      side.append(el("tr", {}, el("td", {}, k), el("td", { "class": "n" }, f(a)), el("td", { "class": "n" }, f(b))));
    });
    side.append(el("tr", { "id": "compare-common-rate" }, el("td", {}, "pass rate on the " + common.length + " common tasks"),
      el("td", { "class": "n", "data-side": "baseline" }, pct(mean(0))), el("td", { "class": "n", "data-side": "candidate" }, pct(mean(1)))));

    const differ = common.filter(([x, y]) => rate(x) !== rate(y));
    const onlyA = a.per_task.length - common.length, onlyB = b.per_task.length - common.length;
    document.getElementById("compare-tasks-title").textContent =
      common.length + " common tasks, " + differ.length + " where the pass counts differ (highlighted)" +
      (onlyA || onlyB ? "; left out: " + onlyA + " only in the baseline, " + onlyB + " only in the candidate" : "");
    const onlyDiffer = document.getElementById("compare-differ").checked;
    const tasks = document.getElementById("compare-tasks").tBodies[0];
    tasks.replaceChildren();
    common.forEach(([x, y]) => {
      const d = rate(y) - rate(x);
      if (onlyDiffer && d === 0) return;
      tasks.append(el("tr", { "class": d !== 0 ? "differs" : "", "data-task": x.id },
        el("td", {}, el("code", {}, x.id)), el("td", { "class": "n" }, x.passed + " / " + x.trials),
        el("td", { "class": "n" }, y.passed + " / " + y.trials),
        el("td", { "class": "n" }, d === 0 ? "0" : (d > 0 ? "+" : "−") + Math.abs(d * 100).toFixed(0) + " pts")));
    });

    document.getElementById("compare-cmd").textContent = "nab compare --baseline " + shq(a.cli_path) +
      " --candidate " + shq(b.cli_path) + " --out " + shq(b.cli_path + "/" + a.compare_name);
    const pages = document.getElementById("compare-pages");
    pages.replaceChildren();
    const page = (cand, base) => (cand.compares.find((c) => data.runs[c.baseline] === base) || null);
    const there = page(b, a), reverse = page(a, b);
    if (there) pages.append(el("a", { "href": there.href, "id": "compare-page" }, "compare page of this pair"), " ");
    if (reverse) pages.append(el("a", { "href": reverse.href, "id": "compare-page-reverse" }, "compare page of the reverse pair"));
    if (!there && !reverse) pages.append("No compare page of this pair yet.");
    compare.hidden = false;
  }
})();
