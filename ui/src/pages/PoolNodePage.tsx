import { useEffect, useState } from "preact/hooks";
import type { PageSettingsView as PageState } from "../../../appliance/web/api/poolnode-page.ts";
import { ApiError, get, post } from "../lib/api.ts";
import { t } from "../lib/i18n.ts";
import { toast } from "../lib/toast.ts";
import { BTN_GHOST, BTN_PRIMARY, CARD, INPUT } from "../lib/ui.ts";
import { useFetch } from "../lib/useFetch.ts";

const why = (e: unknown) =>
  e instanceof ApiError ? `${e.text}${e.body?.detail ? ` (${e.body.detail})` : ""}` : String(e);

/**
 * The node's public page for its miners (docs/pool-node.md "Public page"): where it listens, its
 * heading and notice, HTTPS, and on/off. Saving sends only what changed, one call per setting.
 */
export function PoolNodePage({ active }: { active: boolean }) {
  const [state, reload] = useFetch(
    () =>
      active
        ? get<{ status: number; data?: PageState }>("/api/poolnode/index/port", { quiet: true }).then(
            (r) => r.data ?? null,
          )
        : Promise.resolve(null),
    [active],
  );
  const [form, setForm] = useState({ port: "", route: "", title: "", notice: "", tls: false });
  const [err, setErr] = useState("");
  // The form takes the stored settings when they change, not on every reload: the card reloads after
  // each call, a refused one too, and what the operator typed meanwhile must stay in the form.
  useEffect(() => {
    if (state)
      setForm({
        port: String(state.port),
        route: state.route,
        title: state.title,
        notice: state.notice,
        tls: state.tls,
      });
  }, [state?.port, state?.route, state?.title, state?.notice, state?.tls]);
  if (!state) return null;

  const send = async (calls: [string, unknown][]) => {
    setErr("");
    try {
      for (const [path, body] of calls) await post(`/api/poolnode/${path}`, body, { quiet: true });
      return true;
    } catch (e) {
      setErr(why(e));
      return false;
    } finally {
      reload();
    }
  };
  const save = async () => {
    const calls: [string, unknown][] = [];
    if (form.port !== String(state.port)) calls.push(["index/port", { port: Number(form.port) }]);
    if (form.route !== state.route) calls.push(["route", { k: form.route }]);
    if (form.title !== state.title || form.notice !== state.notice)
      calls.push(["webconfig", { title: form.title, notice: form.notice }]);
    if (form.tls !== state.tls) calls.push([`index/tls/${form.tls ? 1 : 0}`, undefined]);
    if (await send(calls)) toast("ok", t("poolnode.page_saved"));
  };
  const url = `${state.tls ? "https" : "http"}://${location.hostname}:${state.port}/${state.route}`;
  const field = (name: "port" | "route" | "title" | "notice", label: string) => (
    <label class="block text-sm">
      {label}
      <input
        class={INPUT}
        name={name}
        value={form[name]}
        onInput={(e) => setForm({ ...form, [name]: (e.target as HTMLInputElement).value })}
      />
    </label>
  );
  return (
    <section class={CARD} data-testid="poolnode-page">
      <h2 class="mb-1 font-semibold">{t("poolnode.page_title")}</h2>
      <p class="mb-2 text-sm text-mute">{t("poolnode.page_help")}</p>
      <p role="status" class="mb-2 text-sm" data-field="page-state">
        {state.listening ? (
          <>
            {t("poolnode.page_on")}{" "}
            <a class="text-acc hover:underline" href={url} target="_blank" rel="noreferrer">
              {url}
            </a>
          </>
        ) : state.enable ? (
          t("poolnode.page_error", { error: state.error })
        ) : (
          t("poolnode.page_off")
        )}
      </p>
      <div class="grid gap-2 sm:grid-cols-2">
        {field("port", t("poolnode.page_port"))}
        {field("route", t("poolnode.page_route"))}
        {field("title", t("poolnode.page_heading"))}
        {field("notice", t("poolnode.page_notice"))}
      </div>
      <label class="mt-2 flex items-center gap-2 text-sm">
        <input
          type="checkbox"
          name="tls"
          checked={form.tls}
          onChange={(e) => setForm({ ...form, tls: (e.target as HTMLInputElement).checked })}
        />
        {t("poolnode.page_tls")}
      </label>
      {err !== "" && (
        <p role="alert" class="mt-2 text-sm text-bad">
          {err}
        </p>
      )}
      <div class="mt-2 flex gap-2">
        <button type="button" class={BTN_PRIMARY} onClick={save}>
          {t("poolnode.page_save")}
        </button>
        <button
          type="button"
          class={BTN_GHOST}
          onClick={() => send([[`enable/index/${state.enable ? 0 : 1}`, undefined]])}
        >
          {state.enable ? t("poolnode.page_disable") : t("poolnode.page_enable")}
        </button>
      </div>
    </section>
  );
}
