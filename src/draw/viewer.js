// railnote game viewer: swaps in the hexes and standings of the state after N actions.
(function () {
  "use strict";
  const D = JSON.parse(document.getElementById("game-data").textContent);
  const S = D.schema;
  const P = S.players.length;
  const PLAYER_SLOTS = 4;
  const CORP_SLOTS = 10;
  const corpBase = 4 + P * PLAYER_SLOTS;
  const shownHexes = D.hexes.slice();
  let cur = -1;

  function stateAt(n) {
    const hexes = D.hexes.slice();
    const slots = D.slots.slice();
    for (let s = 1; s <= n; s++) {
      const h = D.hex_changes[s - 1];
      for (let k = 0; k < h.length; k += 2) hexes[h[k]] = h[k + 1];
      const v = D.slot_changes[s - 1];
      for (let k = 0; k < v.length; k += 2) slots[v[k]] = v[k + 1];
    }
    return { hexes: hexes, slots: slots };
  }

  function esc(t) {
    return String(t).replace(/[&<>"]/g, function (c) {
      return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c];
    });
  }

  function sym(c) {
    const info = S.corps[c];
    return '<span class="sym" data-corp="' + esc(info.sym) + '" style="background:' + esc(info.fill) +
      ";color:" + esc(info.text) + '">' + esc(info.sym) + "</span>";
  }

  function renderTables(slots) {
    let rows = '<tr><th>player</th><th class="num">cash</th><th class="num">value</th><th>shares</th><th>privates</th></tr>';
    for (let p = 0; p < P; p++) {
      const b = 4 + p * PLAYER_SLOTS;
      const acting = slots[3] === S.players[p] ? ' style="font-weight:bold"' : "";
      rows += "<tr" + acting + "><td>" + esc(S.players[p]) + '</td><td class="num">' + esc(slots[b]) +
        '</td><td class="num">' + esc(slots[b + 1]) + "</td><td>" + esc(slots[b + 2]) + "</td><td>" +
        esc(slots[b + 3]) + "</td></tr>";
    }
    rows += '<tr><td>bank</td><td class="num">' + esc(slots[2]) + "</td><td></td><td></td><td></td></tr>";
    document.getElementById("players").innerHTML = rows;
    let corps = '<tr><th></th><th class="num">price</th><th class="num">cash</th><th>trains</th><th>president</th><th class="num">IPO</th><th class="num">market</th></tr>';
    for (let c = 0; c < S.corps.length; c++) {
      const b = corpBase + c * CORP_SLOTS;
      // Corporations not started yet, and closed ones, are left out.
      if (slots[b + 4] === "" || slots[b + 4] === "closed") continue;
      corps += '<tr data-corp-row="' + esc(S.corps[c].sym) + '"><td>' + sym(c) +
        '</td><td class="num">' + esc(slots[b]) + '</td><td class="num">' + esc(slots[b + 1]) + "</td><td>" +
        esc(slots[b + 2]) + "</td><td>" + esc(slots[b + 3]) + '</td><td class="num">' + esc(slots[b + 8]) +
        '%</td><td class="num">' + esc(slots[b + 9]) + "%</td></tr>";
    }
    document.getElementById("corps").innerHTML = corps;
    document.querySelectorAll("table.market .sym").forEach(function (e) { e.remove(); });
    for (let c = 0; c < S.corps.length; c++) {
      const cell = slots[corpBase + c * CORP_SLOTS + 5];
      if (!cell) continue;
      const td = document.getElementById("mk-" + cell.replace(",", "-"));
      if (td) td.insertAdjacentHTML("beforeend", sym(c));
    }
  }

  function renderNote(n) {
    const parts = [];
    const note = D.notes[n];
    const events = D.events[n] || [];
    if (events.length) {
      parts.push("<ul>" + events.map(function (e) { return "<li>" + esc(e) + "</li>"; }).join("") + "</ul>");
    }
    if (note) {
      if (note.glyph) parts.unshift('<span class="glyph">' + esc(note.glyph) + "</span>");
      (note.before || []).concat(note.after || []).forEach(function (c) { parts.push('<div class="comment">' + esc(c) + "</div>"); });
      (note.variations || []).forEach(function (v) { parts.push('<div class="variation">' + esc(v) + "</div>"); });
    }
    document.getElementById("note").innerHTML = parts.join("") || "&nbsp;";
  }

  function show(n, fromHash) {
    n = Math.max(0, Math.min(S.count, n | 0));
    if (n === cur) return;
    const st = stateAt(n);
    for (let h = 0; h < st.hexes.length; h++) {
      if (st.hexes[h] !== shownHexes[h] || cur < 0) {
        document.getElementById("hx" + h).innerHTML = D.groups[st.hexes[h]];
        shownHexes[h] = st.hexes[h];
      }
    }
    const slots = st.slots;
    const caption = document.querySelector("#board .caption");
    if (caption) {
      caption.textContent = S.title + " · " + slots[0] + " · phase " + slots[1] + " · after " + n + " actions";
    }
    renderTables(slots);
    renderNote(n);
    document.querySelectorAll("#notation .mv.cur").forEach(function (e) { e.classList.remove("cur"); });
    const moves = document.querySelectorAll('#notation .mv[data-i="' + n + '"]');
    moves.forEach(function (e) { e.classList.add("cur"); });
    if (moves.length) {
      const box = document.getElementById("notation");
      const top = moves[0].offsetTop - box.offsetTop;
      if (top < box.scrollTop || top > box.scrollTop + box.clientHeight - 20) {
        box.scrollTop = Math.max(0, top - box.clientHeight / 3);
      }
    }
    document.getElementById("slider").value = n;
    document.getElementById("position").textContent = "after " + n + " of " + S.count + " actions · " + slots[0];
    document.body.setAttribute("data-state", n);
    cur = n;
    if (!fromHash && location.hash !== "#" + n) {
      try { history.replaceState(null, "", "#" + n); } catch (e) { /* file: URLs may refuse */ }
    }
  }

  function fromHash() {
    const m = /^#(\d+)$/.exec(location.hash);
    return m ? parseInt(m[1], 10) : 0;
  }

  document.getElementById("slider").addEventListener("input", function (e) { show(parseInt(e.target.value, 10)); });
  document.getElementById("first").addEventListener("click", function () { show(0); });
  document.getElementById("prev").addEventListener("click", function () { show(cur - 1); });
  document.getElementById("next").addEventListener("click", function () { show(cur + 1); });
  document.getElementById("last").addEventListener("click", function () { show(S.count); });
  document.getElementById("notation").addEventListener("click", function (e) {
    const mv = e.target.closest(".mv");
    if (mv) show(parseInt(mv.getAttribute("data-i"), 10));
  });
  document.addEventListener("keydown", function (e) {
    if (e.target && e.target.tagName === "INPUT" && e.target.type !== "range") return;
    const step = { ArrowRight: 1, ArrowLeft: -1, PageDown: 10, PageUp: -10 }[e.key];
    if (step) { show(cur + step); e.preventDefault(); }
    else if (e.key === "Home") { show(0); e.preventDefault(); }
    else if (e.key === "End") { show(S.count); e.preventDefault(); }
  });
  window.addEventListener("hashchange", function () { show(fromHash(), true); });
  show(fromHash(), true);
})();
