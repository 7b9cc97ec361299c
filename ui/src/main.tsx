import { install } from "@twind/core";
import presetTailwind from "@twind/preset-tailwind";
import { render } from "preact";
import { App } from "./App.tsx";
import { setLanguage } from "./lib/i18n.ts";
import { prefs } from "./lib/prefs.ts";

install({
  presets: [presetTailwind()],
  hash: false,
  theme: {
    extend: {
      colors: {
        bg: "var(--bg)",
        panel: "var(--panel)",
        panel2: "var(--panel2)",
        line: "var(--line)",
        fg: "var(--fg)",
        mute: "var(--mute)",
        acc: "var(--acc)",
        accfg: "var(--acc-fg)",
        ok: "var(--ok)",
        bad: "var(--bad)",
        warn: "var(--warn)",
      },
    },
  },
});

prefs.subscribe((p) => {
  document.documentElement.className = p.theme === "light" ? "light" : "dark";
});

const root = document.getElementById("app");
if (root) {
  root.textContent = "";
  setLanguage(prefs.get().language)
    .catch(() => undefined)
    .then(() => render(<App />, root));
}
