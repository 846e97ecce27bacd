// The classic Jupyter Notebook loads this file from the kernelspec when a
// notebook uses the grundy kernel. Go is indented with tabs (gofmt), and
// the Notebook's ipython theme marks every tab with an arrow image, meant
// to flag stray tabs in Python: every line of a Go cell showed arrows.
// Here tabs show as indentation and the Tab key inserts a tab, as in a Go
// editor.
define(["base/js/namespace", "notebook/js/codecell"], function (Jupyter, codecell) {
    "use strict";
    var options = {indentUnit: 4, tabSize: 4, indentWithTabs: true};
    function onload() {
        var style = document.createElement("style");
        style.id = "grundy-go-tabs";
        style.textContent = ".cm-s-ipython span.cm-tab { background: none; }";
        document.head.appendChild(style);
        Object.assign(codecell.CodeCell.options_default.cm_config, options);
        Jupyter.notebook.get_cells().forEach(function (cell) {
            if (cell.cell_type === "code") {
                Object.keys(options).forEach(function (k) {
                    cell.code_mirror.setOption(k, options[k]);
                });
            }
        });
    }
    return {onload: onload};
});
