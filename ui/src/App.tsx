import { useEffect, useState } from "preact/hooks";
import { BrowserRouter, Navigate, Route, Routes } from "react-router-dom";
import { ConfirmHost } from "./components/ConfirmHost.tsx";
import { lazyNamed } from "./components/lazyNamed.ts";
import { PlainHttpBanner } from "./components/PlainHttpBanner.tsx";
import { ProgressBar } from "./components/ProgressBar.tsx";
import { ReauthHost } from "./components/ReauthHost.tsx";
import { SessionWatch } from "./components/SessionWatch.tsx";
import { Toasts } from "./components/Toasts.tsx";
import { i18n, loadSection } from "./lib/i18n.ts";
import { Dashboard } from "./pages/Dashboard.tsx";
import { Login } from "./pages/Login.tsx";
import { Pool } from "./pages/Pool.tsx";
import { PortInside } from "./pages/PortInside.tsx";
import { Shell } from "./pages/Shell.tsx";

const HOME = "/system/index/chartcard";

/** Pages most operators seldom open, each its own chunk: the first load stays within 80 KB. */
const POOL_NODE_TEXTS = {
  en: () => import("locale:en/poolnode"),
  "zh-CN": () => import("locale:zh-CN/poolnode"),
  ru: () => import("locale:ru/poolnode"),
};
const RegPool = lazyNamed(() =>
  Promise.all([import("./pages/RegPool.tsx"), loadSection(POOL_NODE_TEXTS)]).then(([m]) => m.RegPool),
);
const Control = lazyNamed(() => import("./pages/Control.tsx").then((m) => m.Control));

/** Router basename from <base href> (the server rewrites it when a secure route is set). */
function basename(): string {
  return new URL(document.baseURI).pathname.replace(/\/$/, "") || "/";
}

/** The routes of spec §2; the tree re-renders when the language changes. */
export function App() {
  const [locale, setLocale] = useState(i18n.locale);
  useEffect(() => i18n.on("change", () => setLocale(i18n.locale)), []);
  return (
    <BrowserRouter basename={basename()}>
      <ProgressBar />
      <PlainHttpBanner />
      <SessionWatch />
      <Routes key={locale}>
        <Route path="/" element={<Navigate to={HOME} replace />} />
        <Route path="/login" element={<Login />} />
        <Route path="/system" element={<Shell />}>
          <Route index element={<Navigate to={HOME} replace />} />
          <Route path="index" element={<Navigate to={HOME} replace />} />
          <Route path="index/chartcard" element={<Dashboard />} />
          <Route path="index/portinside" element={<PortInside />} />
          <Route path="pool" element={<Pool />} />
          <Route path="regpool" element={<RegPool />} />
          <Route path="control" element={<Control />} />
        </Route>
        <Route path="*" element={<Navigate to={HOME} replace />} />
      </Routes>
      <ConfirmHost />
      <ReauthHost />
      <Toasts />
    </BrowserRouter>
  );
}
