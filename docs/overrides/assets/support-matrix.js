/* The support matrix's filter (docs/hooks/support_matrix.py writes the form, hidden, a one-line script after it that shows it before the first layout, and the
   data-format of each column's header; issue 42). A reader picks their hardware and a
   format: the other rows, the other formats' columns and the tables without that format are hidden,
   a status line says how many tables show (read out by screen readers), and the choice goes into the
   address (?hardware=sm89&format=float8) so that it can be bookmarked or shared. Without this script
   the form stays hidden and the whole matrix shows. Plain JavaScript, no library. */
(function () {
  "use strict";
  var form = document.querySelector("form.support-matrix-filter");
  if (!form) return;
  var hardware = form.elements.hardware;
  var format = form.elements.format;
  var status = form.querySelector(".support-matrix-filter__status");
  var tables = Array.prototype.slice.call(document.querySelectorAll("div.support-matrix[data-table]"));

  function known(select, value) {
    return Array.prototype.some.call(select.options, function (o) { return o.value === value; }) ? value : "";
  }

  function note(wrapper) {
    var next = wrapper.nextElementSibling;
    if (next && next.classList.contains("support-matrix-filter__none")) return next;
    var p = document.createElement("p");
    p.className = "support-matrix-filter__none";
    p.hidden = true;
    wrapper.parentNode.insertBefore(p, wrapper.nextSibling);
    return p;
  }

  // the rows of every table are the hardware list's, in its order (docs/hooks/support_matrix.py)
  var rows = Array.prototype.map.call(hardware.options, function (o) { return o.value; }).filter(Boolean);

  function apply(updateAddress) {
    var row = hardware.value;
    var fmt = format.value;
    var shown = 0;
    tables.forEach(function (wrapper) {
      var heads = wrapper.querySelectorAll("thead th");
      var columns = Array.prototype.map.call(heads, function (th) { return th.getAttribute("data-format"); });
      var matching = fmt ? columns.filter(function (c) { return c === fmt; }).length : 1;
      var other = function (i) { return fmt !== "" && columns[i] !== null && columns[i] !== fmt; };
      wrapper.hidden = matching === 0;
      var none = note(wrapper);
      none.hidden = matching !== 0;
      none.textContent = matching ? "" : form.dataset.none.replace("{format}", format.options[format.selectedIndex].text);
      if (matching) shown += 1;
      Array.prototype.forEach.call(heads, function (th, i) { th.hidden = other(i); });
      wrapper.querySelectorAll("tbody tr").forEach(function (tr, r) {
        tr.hidden = row !== "" && rows[r] !== row;
        Array.prototype.forEach.call(tr.children, function (td, i) { td.hidden = other(i); });
      });
    });
    var template = row || fmt ? form.dataset.status : form.dataset.statusAll;
    status.textContent = template.replace("{tables}", shown).replace("{total}", tables.length);
    if (updateAddress && window.history && window.history.replaceState) {
      var url = new URL(window.location.href);
      [["hardware", row], ["format", fmt]].forEach(function (pair) {
        if (pair[1]) url.searchParams.set(pair[0], pair[1]); else url.searchParams.delete(pair[0]);
      });
      window.history.replaceState(window.history.state, "", url.toString());
    }
  }

  var params = new URLSearchParams(window.location.search);
  hardware.value = known(hardware, params.get("hardware") || "");
  format.value = known(format, params.get("format") || "");
  form.addEventListener("change", function () { apply(true); });
  form.addEventListener("submit", function (event) { event.preventDefault(); });
  form.addEventListener("reset", function () {
    // after the browser has put the lists back to their first option
    window.setTimeout(function () { apply(true); }, 0);
  });
  form.hidden = false;
  apply(false);
})();
