import { useEffect, useState } from "preact/hooks";
import { Modal } from "../components/Modal.tsx";
import { Tabs } from "../components/Tabs.tsx";
import { WalletRowEditor } from "../editor/WalletRowEditor.tsx";
import { post } from "../lib/api.ts";
import { t } from "../lib/i18n.ts";
import { getPort } from "../lib/port-api.ts";
import { emptyWallet, percentToRatio, ratioToPercent, type WalletRow } from "../lib/port-form.ts";
import { toast } from "../lib/toast.ts";
import { BTN_DANGER, BTN_GHOST, BTN_PRIMARY } from "../lib/ui.ts";
import { validateHotWallets } from "../lib/validate/forms.ts";
import type { FieldError } from "../lib/validate/types.ts";

interface Props {
  portId: number;
  onClose: () => void;
  onSaved: () => void;
}

/** Hot-update of a port's fee wallets, one tab per wallet; miners stay connected (spec §4). */
export function HotWallets({ portId, onClose, onSaved }: Props) {
  const [rows, setRows] = useState<WalletRow[]>([]);
  // the port's coin: the preset pickers and the connection test of each row need it
  const [coin, setCoin] = useState("");
  const [tab, setTab] = useState(0);
  const [errors, setErrors] = useState<FieldError[]>([]);
  const load = () =>
    getPort(portId)
      .then((p) => {
        setCoin(p.server.currency);
        setRows(p.wallets.map((w) => ({ ...w, percent: ratioToPercent(w.ratio) })));
      })
      .catch(() => onClose());
  useEffect(() => {
    load();
    toast("warn", t("hot.notice"));
  }, [portId]);
  const row = rows[tab];
  const save = async () => {
    const errs = validateHotWallets(rows);
    setErrors(errs);
    if (errs.length) {
      setTab((errs[0].row ?? 1) - 1);
      toast("err", `${t("editor.wallet_n", { n: errs[0].row })}: ${t(errs[0].key)}`);
      return;
    }
    const wallets = rows.map((r) => ({
      addr: r.addr.trim(),
      device: r.device.trim(),
      pool_address: r.pool_address.trim(),
      pool_protocol: r.pool_protocol,
      ratio: percentToRatio(r.percent),
    }));
    try {
      await post(`/api/port/${portId}/wallets`, { wallets });
      toast("ok", t("hot.saved"));
      load();
      onSaved();
    } catch {
      /* the client showed the error */
    }
  };
  const remove = () => {
    if (rows.length <= 1) {
      toast("warn", t("lang.wallet.err_min"));
      return;
    }
    setRows(rows.filter((_, i) => i !== tab));
    setTab(0);
  };
  return (
    <Modal
      title={t("hot.title")}
      onClose={onClose}
      wide
      testId="hot-wallets"
      footer={
        <>
          <button type="button" class={BTN_GHOST} onClick={onClose}>
            {t("common.close")}
          </button>
          <button type="button" class={BTN_DANGER} onClick={remove} disabled={!row}>
            {t("common.delete")}
          </button>
          <button type="button" class={BTN_PRIMARY} onClick={save} disabled={!row}>
            {t("common.save")}
          </button>
        </>
      }
    >
      <Tabs
        active={String(tab)}
        onSelect={(k) => setTab(Number(k))}
        tabs={rows.map((_, i) => ({ key: String(i), label: t("editor.wallet_n", { n: i + 1 }) }))}
      />
      {row && (
        <WalletRowEditor
          index={tab}
          row={row}
          coin={coin}
          errors={errors}
          poolLocked={false}
          onChange={(patch) => setRows(rows.map((r, i) => (i === tab ? { ...r, ...patch } : r)))}
          onRemove={remove}
        />
      )}
      <button
        type="button"
        class={`${BTN_GHOST} mt-2`}
        disabled={rows.length >= 10}
        onClick={() => {
          setRows([...rows, emptyWallet()]);
          setTab(rows.length);
        }}
      >
        + {t("editor.add_wallet")}
      </button>
    </Modal>
  );
}
