/* The theme before the first paint (issue 12): the user's choice from localStorage;
   "system" (or none) leaves data-theme unset so prefers-color-scheme decides. A file, not
   an inline script: the Content-Security-Policy allows no inline script (issue 15). */
try {
  var t = localStorage.getItem("kontor.theme");
  if (t === "light" || t === "dark") document.documentElement.setAttribute("data-theme", t);
  var l = localStorage.getItem("kontor.language");
  if (l === "de" || l === "en") document.documentElement.setAttribute("lang", l);
} catch (e) {}
