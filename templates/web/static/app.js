// donjon's table companion on a phone: every tap is sent with its own key, kept until the companion has it
// (offline, the server restarting: it is sent again, and the key makes sure it counts once), and the page's
// pieces the answer holds are swapped in by their id. Open tables ask every two seconds whether anything changed.
// No framework, nothing fetched from elsewhere; the words a person reads are in the page (the data-* attributes of
// #connection in base.html), so that a translation of the pages translates them too.
"use strict";
(function () {
  const state = document.getElementById("live-state");
  const table = state ? state.dataset.table : null;
  const store = table ? "donjon-pending-" + table : null;
  const POLL_MS = 2000;
  const RETRY_MS = [1000, 2000, 4000, 8000];
  // How long a tap's answer is waited for. On weak Wi-Fi a request can go nowhere with no error for minutes (the
  // browser's own timeout): the tap is kept, but nothing says so and the taps after it wait. The companion answers
  // a tap in milliseconds (a castle part's: 10 ms median, 24 ms at most, on a two-core machine), so an answer not
  // there after 8 s, a slow laptop's many times over, is taken as not arriving: said, and sent again with its key
  // (counted once if it did arrive). The live updates' poll gives up as well, and asks again 2 s later.
  const ANSWER_MS = 8000;
  let pending = [];
  let sending = false;
  let failures = 0;
  let retryTimer = null;

  function load() {
    try { pending = JSON.parse(localStorage.getItem(store) || "[]"); } catch (e) { pending = []; }
  }
  function save() {
    if (!store) return;  // a page of no table has no taps of its own (those kept for a table: sendKept)
    try { localStorage.setItem(store, JSON.stringify(pending)); } catch (e) { /* private mode: kept in memory */ }
  }
  function newKey() {  // crypto.randomUUID needs https; getRandomValues works on a local network's http
    const bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  }

  // --- what the page says about the connection ---------------------------------------------------------------
  const banner = document.getElementById("connection");
  const bannerText = document.getElementById("connection-text");
  const discard = document.getElementById("discard");
  function words(name, values) {  // a sentence of the page's, its {placeholders} filled in
    const text = (banner && banner.dataset[name]) || "";
    return text.replace(/\{(\w+)\}/g, (_, key) => String(values && key in values ? values[key] : ""));
  }
  // A refusal of a tap kept on the phone is said once, when it is sent: the next poll's "all is well" (2 s later)
  // cleared it, before a player looked. It is held until the player closes it (or leaves the page to act on it);
  // what the connection says meanwhile is said after it.
  const dismiss = document.getElementById("dismiss");
  let held = "";
  // The words sit fixed over the bottom of the screen (a quarter of a phone's): the page ends above them while they
  // show, or its last lines (the running totals, Save) stay under them, out of reach of a scroll.
  function tell(text, showDiscard) {
    if (!banner) return;
    const said = [held, text].filter(Boolean).join(" ");
    if (!said) { banner.hidden = true; document.body.style.paddingBottom = ""; return; }
    bannerText.textContent = said;
    discard.hidden = !showDiscard;
    if (dismiss) dismiss.hidden = !held;
    banner.hidden = false;
    document.body.style.paddingBottom = (banner.offsetHeight + 16) + "px";  // 16: its .5rem off the edge, and air
  }
  function hold(text) {
    held = text;
    tell("", false);
  }
  if (dismiss) dismiss.addEventListener("click", function () { hold(""); });
  function unsaved(n) {
    return n === 0 ? "" : n === 1 ? words("unsavedOne") : words("unsavedMany", {n: n});
  }
  // n: the changes not sent yet (this table's, else those kept for other tables); reason: what the companion said
  // of it (saidBy), which names what a status cannot ("the database ... is no longer the file it opened: move it
  // back"). A 401 keeps the page's words: the companion's are for a script (an Authorization header)
  function offline(why, n, reason) {
    const left = n === undefined ? pending.length : n;
    const said = why === 401 ? words("notLetIn") : why === "down" ? words("down")
      : reason ? words("answered", {why: reason})
      : why === 507 ? words("full") : words("error", {status: why});
    tell(said + (left ? " " + words("kept", {unsaved: unsaved(left)}) : ""), left > 0);
  }
  if (discard) discard.addEventListener("click", function () {
    pending = []; save();
    for (const name of keptNames()) {  // those kept for other tables, said on this page too
      try { localStorage.removeItem(name); } catch (e) { /* nothing kept */ }
    }
    location.reload();
  });

  function announce(text) {
    const region = document.getElementById("announce");
    if (!region || !text) return;
    region.textContent = "";
    setTimeout(function () { region.textContent = text; }, 50);
  }
  function messagesOf(root) {
    return Array.from(root.querySelectorAll(".violation, .warning")).map((p) => p.textContent.trim());
  }

  // --- swapping an answer's pieces in --------------------------------------------------------------------------
  function typingIn(element) {
    const active = document.activeElement;
    return active && element.contains(active) && active.matches("input[type=text], input[type=number]")
      && active.value !== active.defaultValue;
  }
  let swapping = false;  // a field moved by swap() loses its focus for a moment: not the player leaving it
  function swap(html) {
    // a second tap's note ("not taken") stays: an answer that came after it drew its part anew without it
    const note = document.querySelector(".tap-note");
    swapping = true;
    try { swapPieces(html); } finally { swapping = false; }
    if (note && !note.isConnected && !document.querySelector(".tap-note")) {
      const control = controlOf(note.dataset.what);
      if (control) notTaken(control, note.dataset.said);
    }
  }
  function swapPieces(html) {
    const before = new Set(messagesOf(document));
    const doc = new DOMParser().parseFromString("<body>" + html + "</body>", "text/html");
    for (const piece of Array.from(doc.body.children)) {
      if (!piece.id) continue;
      const old = document.getElementById(piece.id);
      if (!old) continue;
      piece.removeAttribute("data-oob");
      let kept = null;
      if (typingIn(old)) {  // never overwrite what a player is typing: keep their input as it is
        const active = document.activeElement;
        const twin = active.id ? piece.querySelector("#" + CSS.escape(active.id)) : null;
        if (twin) { twin.replaceWith(active); kept = active; }
        else continue;
      }
      old.replaceWith(piece);
      // moved out of the page and back, the field lost its focus, which sent what was typed so far ("1" of "17")
      // and left the rest of the typing nowhere: it keeps the focus, and is sent when left (see "focusout")
      if (kept) kept.focus({preventScroll: true});
    }
    // a broken rule shows at its field and on its player's card of the totals: say it once
    const fresh = Array.from(new Set(messagesOf(document))).filter((m) => !before.has(m));
    if (fresh.length) announce(fresh.join(". "));
  }

  // --- the edits ------------------------------------------------------------------------------------------------
  function editOf(element) {
    const edit = JSON.parse(element.dataset.edit);
    if (element.matches("input, select")) {
      edit.value = element.value;
      if ("was" in edit) {  // the field now shows what it sent: its next change is from that (kept offline too)
        const next = JSON.parse(element.dataset.edit);
        next.was = element.value;
        element.dataset.edit = JSON.stringify(next);
      }
    }
    if (element.hasAttribute("data-toggle")) {
      const wanted = element.getAttribute("aria-pressed") !== "true";
      if (edit.op === "set") edit.value = wanted ? "true" : "false";
      else edit.on = wanted ? "true" : "false";
      element.setAttribute("aria-pressed", wanted ? "true" : "false");  // shown at once; the answer confirms
    }
    if (edit.op === "add") shownAdded(element, Number(edit.value));
    if (edit.op === "append") shownAppended(element);
    edit.key = newKey();
    // the table as made: a tap kept on the phone and sent later reaches a table of that number in whatever database
    // the companion then serves (another evening's), which refuses it rather than take it into another game
    const live = document.getElementById("live-state");
    if (live && live.dataset.made) edit.made = live.dataset.made;
    return edit;
  }
  // a "+" or "-" tapped shows in its field at once, as a toggle does: kept without Wi-Fi, a tap that changed nothing
  // on the screen was tapped again, and a number typed after it said it was changed from the old one (Edit.was)
  function shownAdded(button, step) {
    const field = button.closest(".count") && button.closest(".count").querySelector("input[data-edit]");
    if (!field || !Number.isFinite(step)) return;
    const next = (parseInt(field.value, 10) || 0) + step;
    if ((field.min !== "" && next < Number(field.min)) || (field.max !== "" && next > Number(field.max))) return;
    const now = String(next);  // past a bound the companion refuses it, and says so at the field
    field.value = field.defaultValue = now;
    const data = JSON.parse(field.dataset.edit);
    if ("was" in data) { data.was = now; field.dataset.edit = JSON.stringify(data); }
  }
  // a value tapped into a list ("+9" of the VP cards bought, "+5" of the towers) shows in the list at once too: kept
  // without Wi-Fi, the list still said "none yet", and the value tapped again counted twice once the Wi-Fi was back.
  // It shows faded (disabled, no ×: its place in the list is the companion's to give) until the answer, whose list
  // replaces it
  function shownAppended(button) {
    if (button.dataset.one) { shownRecord(button); return; }
    const taps = button.closest(".taps");
    const chips = taps && taps.previousElementSibling;
    if (!chips || !chips.matches(".chips")) return;
    const chip = document.createElement("button");
    chip.type = "button";
    chip.className = "chip pending";
    chip.disabled = true;
    chip.textContent = button.textContent.trim().replace(/^\+/, "");
    for (const stale of chips.querySelectorAll(".none, .sum")) stale.remove();  // the sum is drawn again with it
    chips.appendChild(chip);
  }
  // "Add wall" the same: a wall named as it will be ("Wall 2"), faded, with nothing to fill in until the answer
  function shownRecord(button) {
    const records = Array.from(button.parentElement.children).filter((e) => e.matches(".record"));
    const record = document.createElement("div");
    record.className = "record pending";
    const name = document.createElement("strong");
    name.textContent = button.dataset.one.replace("{n}", String(records.length + 1));
    record.appendChild(name);
    button.before(record);
  }
  // The taps still kept, drawn again over an answer just swapped in. An earlier tap's answer draws its lists, counts
  // and tiles as the companion has them, without the taps made while it was on its way: "+7" tapped while the
  // answer to "+9" travelled vanished from the list when that answer came, and with the Wi-Fi gone before "+7" was
  // sent the bottom said "1 change is not saved yet" with nothing on the screen showing which, so it was tapped
  // again, and counted twice once sent. A kept tap is found by the control that made it (its data-edit, the key
  // and what editOf adds aside), among the controls the answer drew anew (`before`: those on the page before it; an
  // answer holds only the pieces that changed, and a control it left still shows its kept taps)
  function redrawKept(before) {
    const controls = Array.from(document.querySelectorAll("button[data-edit]")).filter((b) => !before.has(b));
    for (const edit of pending) {
      const control = controls.find(function (button) {
        let made;
        try { made = JSON.parse(button.dataset.edit); } catch (e) { return false; }
        return Object.keys(made).every((k) => String(made[k] == null ? "" : made[k]) ===
                                              String(edit[k] == null ? "" : edit[k]));
      });
      if (!control) continue;
      if (control.hasAttribute("data-toggle")) {
        const on = edit.op === "set" ? edit.value : edit.on;
        control.setAttribute("aria-pressed", String(on) === "true" ? "true" : "false");
      } else if (edit.op === "add") shownAdded(control, Number(edit.value));
      else if (edit.op === "append") shownAppended(control);
    }
  }
  // fetch, and read its answer whole ({status, headers, text}), given up after ANSWER_MS as a network error. The
  // answer's body is read within that time too: a companion that said its status and then stalled in the middle of
  // its page held every tap after it (and the kept taps of other tables) as long as one that never answered at all
  function timed(url, options) {
    const stop = new AbortController();
    let timer = null;
    const late = new Promise(function (_, reject) {
      timer = setTimeout(function () { stop.abort(); reject(new TypeError("no answer in time")); }, ANSWER_MS);
    });
    const whole = fetch(url, Object.assign({signal: stop.signal}, options)).then(function (answer) {
      return answer.text().then(function (text) {
        return {status: answer.status, headers: answer.headers, text: text};
      });
    });
    return Promise.race([whole, late]).finally(function () { clearTimeout(timer); });
  }
  function send(edit) {
    pending.push(edit);
    save();
    flush();
  }
  function schedule() {
    clearTimeout(retryTimer);
    retryTimer = setTimeout(flush, RETRY_MS[Math.min(failures, RETRY_MS.length - 1)]);
    failures += 1;
  }
  async function flush() {
    if (sending || !pending.length) return;
    sending = true;
    document.body.classList.add("sending");
    try {
      while (pending.length) {
        const edit = pending[0];
        const body = new URLSearchParams();
        for (const [k, v] of Object.entries(edit)) body.append(k, v == null ? "" : String(v));
        // the version the page shows as it is sent: a change of another phone's since is drawn with the answer
        const shown = document.getElementById("live-state");
        if (shown) body.set("v", shown.dataset.version);
        let answer;
        try {
          answer = await timed("/tables/" + table + "/edit", {
            method: "POST", body: body, credentials: "same-origin", headers: {"Accept": "text/html"}});
        } catch (e) {
          offline("down"); schedule(); return;
        }
        if (answer.status === 401) { offline(401); schedule(); return; }
        if (answer.status >= 500 || answer.status === 408 || answer.status === 429) {
          offline(answer.status, undefined, saidBy(answer)); schedule(); return;
        }
        pending.shift();  // answered whole: applied, or refused with the reason in the page (a 4xx), never twice
        save();
        failures = 0;
        const html = answer.text;
        if ((answer.headers.get("content-type") || "").startsWith("text/html") && !html.startsWith("<!doctype")) {
          const before = new Set(document.querySelectorAll("button[data-edit]"));
          swap(html);
          redrawKept(before);
        } else if (answer.status >= 400) {
          const reason = saidBy(answer);
          tell(reason ? words("refusedWhy", {why: reason}) : words("refused", {status: answer.status}), false);
          setTimeout(function () { location.reload(); }, 1500);
        }
      }
      tell("", false);
    } finally {
      sending = false;
      document.body.classList.toggle("sending", pending.length > 0);
    }
  }

  // A double tap whose first tap was answered before the finger came down again: the answer drew the list anew, and
  // the second tap landed on what had slid into the first one's place. A double tap on "take away 5 (number 1)" of
  // towers 5, 2, 5 took away the 5, then the 2 ("take away 2 (number 1)", a valid edit of the list as drawn), on a
  // table's Wi-Fi that answers in 20-50 ms, well within a finger's 150-300 ms between two taps. The browser counts the
  // taps of a double tap (a click's `detail`: Chromium on a phone says 2 for a second tap within 300 ms at the same
  // spot, whatever element is there now): a second tap on a control other than the first tap's (what it does, not
  // the element: a count's "+" drawn anew is the same "+", and tapped twice it counts twice) is not taken, and the
  // page says so at that control, so that a tap meant is tapped again rather than lost unsaid. Taps both made
  // before the answer hit the same element, and the companion refuses the second (a remove says how many items it
  // saw, an undo which change it takes back)
  // The browser alone says which taps make one gesture (`detail`: its own time and distance, about 300 ms and a few
  // pixels on a phone); no time of ours is weighed beside it, as a clock of the page's would call a slow double tap
  // two taps where the browser says one, or the reverse
  let lastTap = null;  // the previous click's control (tapped()): the first tap of the gesture a `detail` > 1 ends
  function tapped(button) {  // what a control does, whatever element draws it
    if (!button) return "";
    let edit;
    try { edit = JSON.parse(button.dataset.edit); } catch (e) { return ""; }
    if (button.hasAttribute("data-toggle")) { delete edit.value; delete edit.on; }  // a toggle's tap decides these
    return JSON.stringify(edit);
  }
  function notTaken(button, said) {
    for (const old of document.querySelectorAll(".tap-note")) old.remove();
    const note = document.createElement("p");
    note.className = "tap-note";
    note.setAttribute("role", "status");
    const what = (button.getAttribute("aria-label") || button.textContent).trim();
    note.textContent = words(said || "slid", {what: what});
    note.dataset.what = tapped(button);
    note.dataset.said = said || "slid";
    const place = button.closest(".control, .question, [id^='undo-']") || button.parentElement;
    place.insertBefore(note, place.firstChild);  // where a refusal of the companion's shows (_controls.html)
  }
  // the control that made a tap, found by what it does (its element may have been drawn anew since)
  function controlOf(what) {
    return Array.from(document.querySelectorAll("button[data-edit]")).find((b) => tapped(b) === what) || null;
  }
  document.addEventListener("click", function (event) {
    const button = event.target.closest("button[data-edit]");
    const what = tapped(button);
    const first = lastTap;
    const slid = event.detail > 1 && lastTap !== null && what !== lastTap;
    if (!slid) lastTap = what;  // a third tap is weighed against the first too
    if (!button) {
      // the second tap of a double tap on a control, landed on nothing: the first tap's answer moved the control
      // from under the finger (a list grown by a row). Said at that control, as a tap that slid onto another is
      const moved = slid && first ? controlOf(first) : null;
      if (moved) notTaken(moved, "moved");
      return;
    }
    if (button.disabled) return;
    event.preventDefault();
    if (slid) { notTaken(button); return; }
    for (const old of document.querySelectorAll(".tap-note")) old.remove();  // said; the next tap taken ends it
    send(editOf(button));
  });
  document.addEventListener("change", function (event) {
    const field = event.target.closest("input[data-edit], select[data-edit]");
    if (!field || swapping) return;  // moved by swap(), Chromium says "change" mid-typing: not sent until left
    send(editOf(field));
    if (field.matches("input")) field.defaultValue = field.value;  // sent: what "focusout" compares with
  });
  // a field typed in whose "change" was not sent (it came while another phone's update was drawn in) is sent when
  // the player leaves it; after a "change" sent it is already
  document.addEventListener("focusout", function (event) {
    const field = event.target.closest("input[type=text][data-edit], input[type=number][data-edit]");
    if (swapping || !field || field.value === field.defaultValue) return;
    send(editOf(field));
    field.defaultValue = field.value;
  });

  // Save sends this phone's taps first. A tap kept on the phone (the Wi-Fi gone a moment, its retry a few seconds
  // away) and Save tapped meanwhile saved the game without it, and the tap was then refused: the game is saved. Save
  // waits for the taps in flight, sends those kept, and saves once the companion has them all; when they cannot be
  // sent, nothing is saved, and the words at the bottom say what is not saved and why.
  function savesThisTable(form) {
    try { return new URL(form.action, location.href).pathname === "/tables/" + table + "/save"; }
    catch (e) { return false; }
  }
  document.addEventListener("submit", function (event) {
    const form = event.target;
    if (!table || !(pending.length || sending) || !savesThisTable(form)) return;
    event.preventDefault();
    const submitter = event.submitter;
    (async function () {
      while (sending) await new Promise((done) => setTimeout(done, 100));
      await flush();
      if (pending.length) return;  // not sent: said at the bottom, and Save is tapped again when it can be
      // the taps' answers drew the totals again, Save with them: that Save, if the table can still be saved as
      // the taps left it (a tap that broke a rule takes Save away, and nothing is saved)
      const now = form.isConnected ? form
        : Array.from(document.forms).find((f) => savesThisTable(f) && f.className === form.className);
      if (!now) return;
      const button = submitter && now.contains(submitter) ? submitter : now.querySelector("button[type=submit]");
      if (button) now.requestSubmit(button); else now.requestSubmit();
    })();
  });

  // --- live updates ---------------------------------------------------------------------------------------------
  let whole = false;  // an update was left unread (below): the next one asks for the table whole
  async function poll() {
    if (pending.length || sending || document.hidden) return;  // our own changes first; a sleeping phone waits
    const live = document.getElementById("live-state");
    const asked = live.dataset.version;
    const query = new URLSearchParams({v: whole ? "" : asked, seat: live.dataset.seat,
                                       h: whole ? "" : live.dataset.hash});
    let answer;
    try {
      answer = await timed("/tables/" + table + "/live?" + query, {credentials: "same-origin"});
    } catch (e) {
      offline("down");
      return;
    }
    if (answer.status === 401) { offline(401); return; }
    if (answer.status >= 500) { offline(answer.status, undefined, saidBy(answer)); return; }
    tell("", false);
    if (answer.status !== 200) return;
    // A tap made while the update travelled (on a slow Wi-Fi, a loaded laptop) drew the table anew with its answer:
    // the update, asked before it, can be older than what is shown, and drew the tap off the page until the next
    // poll. It is left unread (a poll answered out of its turn, after a later one, the same). What it held of other
    // phones' changes may be drawn nowhere yet (a tap's answer draws the control tapped, and says the page is up to
    // date): the next poll asks for the table whole
    const now = document.getElementById("live-state");
    if (pending.length || sending || !now || now.dataset.version !== asked) { whole = true; return; }
    whole = false;
    swap(answer.text);
  }

  if (table) {
    load();
    if (pending.length) flush();
    setInterval(poll, POLL_MS);
    window.addEventListener("online", flush);
    document.addEventListener("visibilitychange", function () { if (!document.hidden) { flush(); poll(); } });
  }

  // --- the taps kept for a table whose page is not this one -------------------------------------------------------
  // Taps kept without Wi-Fi were sent only from their own table's pages. The app put away and opened again from the
  // home screen starts at the home page (or the player went to the history, another table): they stayed on the
  // phone, unsent and unsaid, and another phone saved the game without them. Every page sends them, each with its
  // key (counted once, were it sent from two pages at once), and says what it cannot send yet or what was refused.
  const KEPT = "donjon-pending-";
  let keptTimer = null;
  let keptFailures = 0;
  function keptNames() {
    try {
      return Object.keys(localStorage).filter((name) => name.startsWith(KEPT) && name !== store);
    } catch (e) { return []; }  // no storage: nothing was kept
  }
  async function sendKept() {
    clearTimeout(keptTimer);
    let left = 0;
    let why = null;
    let reason = "";
    let refused = null;
    for (const name of keptNames()) {
      const other = name.slice(KEPT.length);
      let kept;
      try { kept = JSON.parse(localStorage.getItem(name) || "[]"); } catch (e) { kept = []; }
      while (kept.length && why === null) {
        const body = new URLSearchParams();
        for (const [k, v] of Object.entries(kept[0])) body.append(k, v == null ? "" : String(v));
        let answer;
        try {
          answer = await timed("/tables/" + encodeURIComponent(other) + "/edit", {
            method: "POST", body: body, credentials: "same-origin", headers: {"Accept": "text/html"}});
        } catch (e) { why = "down"; break; }
        if (answer.status === 401 || answer.status >= 500 || answer.status === 408 || answer.status === 429) {
          why = answer.status;
          reason = saidBy(answer);
          break;
        }
        kept.shift();  // answered: applied, or refused (a game saved meanwhile), never twice
        if (answer.status >= 400) refused = {table: other, status: answer.status, why: saidBy(answer)};
        try {
          if (kept.length) localStorage.setItem(name, JSON.stringify(kept)); else localStorage.removeItem(name);
        } catch (e) { /* kept in this page's memory only */ }
      }
      left += kept.length;
    }
    if (left) {
      offline(why, left, reason);
      keptTimer = setTimeout(sendKept, RETRY_MS[Math.min(keptFailures, RETRY_MS.length - 1)]);
      keptFailures += 1;
    } else if (refused) {
      keptFailures = 0;
      hold(words(refused.why ? "refusedAtWhy" : "refusedAt", refused));
    }
  }
  // why the companion refused a request, in its words (the message its answer shows at the field: "this game is
  // saved; its table can no longer change"; its error page's: "the database ... is no longer the file it opened"; a
  // guard's plain text; the JSON API's `error`), in the page's language (the request's: the phone's cookie or
  // Accept-Language), for a player, who has no use for an HTTP status; "" when it says none
  function saidBy(answer) {
    const type = (answer.headers.get("content-type") || "").split(";")[0].trim().toLowerCase();
    let said = "";
    if (type === "text/html") {
      const doc = new DOMParser().parseFromString(answer.text, "text/html");
      const found = doc.querySelector(".violation[role=alert]") || doc.querySelector("main .violation");
      said = found ? found.textContent : "";
    } else if (type === "application/json") {
      try {
        const body = JSON.parse(answer.text);
        said = body && typeof body.error === "string" ? body.error : "";
      } catch (e) { said = ""; }
    } else if (type === "text/plain") said = answer.text;
    return said.trim().replace(/[.!]$/, "");
  }
  sendKept();
  window.addEventListener("online", sendKept);
})();
