import { useEffect, useState } from "preact/hooks";
import { Field } from "../components/Field.tsx";
import { get, post } from "../lib/api.ts";
import { t } from "../lib/i18n.ts";
import { toast } from "../lib/toast.ts";
import { BTN_GHOST, BTN_PRIMARY, CARD, INPUT } from "../lib/ui.ts";

/** The project as GET /api/poolnode/project/config gives it (docs/pool-node.md). */
interface Project {
  coin: string;
  rpc_url: string;
  rpc_cookie_file: string;
  rpc_user: string;
  rpc_password_set: boolean;
  pool_address: string;
  fee: number;
  pplns_window: number;
  difficulty: number;
  vardiff_seconds: number;
  payout_threshold: number;
  payout_interval_seconds: number;
  stratum_port: number;
}

const COINS = ["LTC", "BTC"];

const EMPTY = {
  coin: "LTC",
  rpc_url: "http://127.0.0.1:9332/",
  rpc_cookie_file: "",
  rpc_user: "",
  rpc_password: "",
  pool_address: "",
  fee: "1",
  pplns_window: "1000000",
  difficulty: "65536",
  vardiff_seconds: "10",
  payout_threshold: "0.1",
  payout_interval_seconds: "3600",
  stratum_port: "3333",
};
type Form = typeof EMPTY;

function formOf(p: Project): Form {
  return {
    coin: p.coin,
    rpc_url: p.rpc_url,
    rpc_cookie_file: p.rpc_cookie_file,
    rpc_user: p.rpc_user,
    rpc_password: "",
    pool_address: p.pool_address,
    fee: String(p.fee * 100),
    pplns_window: String(p.pplns_window),
    difficulty: String(p.difficulty),
    vardiff_seconds: String(p.vardiff_seconds),
    payout_threshold: String(p.payout_threshold),
    payout_interval_seconds: String(p.payout_interval_seconds),
    stratum_port: String(p.stratum_port),
  };
}

/**
 * The pool-node project: the coin daemon and its credentials, where rewards go, fee and PPLNS window,
 * difficulty, when balances are paid and the stratum port; save, then activate (the pool starts) or
 * deactivate. The server checks it all.
 */
export function PoolNodeProject({ active, onChange }: { active: boolean; onChange: () => void }) {
  const [f, setF] = useState<Form>(EMPTY);
  const [passwordSet, setPasswordSet] = useState(false);
  useEffect(() => {
    get<{ status: number; data?: Project }>("/api/poolnode/project/config", { quiet: true })
      .then((r) => {
        if (r.status === 0 && r.data) {
          setF(formOf(r.data));
          setPasswordSet(r.data.rpc_password_set);
        }
      })
      .catch(() => undefined);
  }, []);
  const set = (k: keyof Form) => (e: Event) =>
    setF({ ...f, [k]: (e.currentTarget as HTMLInputElement | HTMLSelectElement).value });
  const save = async () => {
    const body = {
      ...f,
      fee: Number(f.fee) / 100,
      pplns_window: Number(f.pplns_window),
      difficulty: Number(f.difficulty),
      vardiff_seconds: Number(f.vardiff_seconds),
      payout_threshold: Number(f.payout_threshold),
      payout_interval_seconds: Number(f.payout_interval_seconds),
      stratum_port: Number(f.stratum_port),
    };
    await post<{ data: Project }>("/api/poolnode/project/apply", body).then(
      (r) => {
        setPasswordSet(r.data.rpc_password_set);
        setF({ ...f, rpc_password: "" });
        toast("ok", t("poolnode.saved"));
        onChange();
      },
      () => undefined,
    );
  };
  const switchTo = async (on: boolean) => {
    await post(`/api/poolnode/project/${on ? "active" : "unactive"}`).then(onChange, onChange);
  };
  const text = (k: keyof Form, label: string, numeric = false) => (
    <Field label={label}>
      <input class={INPUT} name={k} inputMode={numeric ? "decimal" : "text"} value={f[k]} onInput={set(k)} />
    </Field>
  );
  return (
    <section class={`${CARD} space-y-3`} data-testid="poolnode-project">
      <h2 class="font-semibold">{t("poolnode.project")}</h2>
      <div class="grid gap-3 md:grid-cols-2">
        <Field label={t("poolnode.coin")}>
          <select class={INPUT} name="coin" value={f.coin} onChange={set("coin")}>
            {COINS.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
        </Field>
        {text("rpc_url", t("poolnode.rpc_url"))}
        {text("rpc_cookie_file", t("poolnode.cookie_file"))}
        {text("rpc_user", t("poolnode.rpc_user"))}
        <Field
          label={t("poolnode.rpc_password")}
          hint={passwordSet ? t("poolnode.password_kept") : undefined}
        >
          <input
            class={INPUT}
            name="rpc_password"
            type="password"
            autocomplete="new-password"
            value={f.rpc_password}
            onInput={set("rpc_password")}
          />
        </Field>
        {text("pool_address", t("poolnode.pool_address"))}
        {text("fee", t("poolnode.fee"), true)}
        {text("pplns_window", t("poolnode.pplns_window"), true)}
        {text("difficulty", t("poolnode.difficulty"), true)}
        {text("vardiff_seconds", t("poolnode.vardiff_seconds"), true)}
        {text("payout_threshold", t("poolnode.payout_threshold"), true)}
        {text("payout_interval_seconds", t("poolnode.payout_interval"), true)}
        {text("stratum_port", t("poolnode.stratum_port"), true)}
      </div>
      <div class="flex gap-2">
        <button type="button" class={BTN_PRIMARY} onClick={save}>
          {t("common.save")}
        </button>
        {active ? (
          <button type="button" class={BTN_GHOST} onClick={() => switchTo(false)}>
            {t("poolnode.deactivate")}
          </button>
        ) : (
          <button type="button" class={BTN_PRIMARY} onClick={() => switchTo(true)}>
            {t("poolnode.activate")}
          </button>
        )}
      </div>
    </section>
  );
}
