/* The support matrix's filter (docs/hooks/support_matrix.py writes the form, hidden, and the
   data-row / data-format attributes of the tables; issue 42). A reader picks their hardware and a
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

  function apply(updateAddress) {
    var row = hardware.value;
    var fmt = format.value;
    var shown = 0;
    tables.forEach(function (wrapper) {
      var matching = fmt ? wrapper.querySelectorAll('thead th[data-format="' + fmt + '"]').length : 1;
      wrapper.hidden = matching === 0;
      var none = note(wrapper);
      none.hidden = matching !== 0;
      none.textContent = matching ? "" : form.dataset.none.replace("{format}", format.options[format.selectedIndex].text);
      if (matching) shown += 1;
      wrapper.querySelectorAll("tbody tr[data-row]").forEach(function (tr) {
        tr.hidden = row !== "" && tr.dataset.row !== row;
      });
      wrapper.querySelectorAll("[data-format]").forEach(function (cell) {
        cell.hidden = fmt !== "" && cell.dataset.format !== fmt;
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
