import { useEffect, useRef, useState } from "preact/hooks";
import { Modal } from "../components/Modal.tsx";
import { Tabs } from "../components/Tabs.tsx";
import { t } from "../lib/i18n.ts";
import { getPort, savePort } from "../lib/port-api.ts";
import {
  cloneForm,
  emptyForm,
  feePoolDiffers,
  feeSummary,
  fromItem,
  NGINX,
  type PortForm,
  toPayload,
} from "../lib/port-form.ts";
import { currency } from "../lib/session.ts";
import { toast } from "../lib/toast.ts";
import { BTN_GHOST, BTN_PRIMARY } from "../lib/ui.ts";
import { validatePort } from "../lib/validate/port.ts";
import type { FieldError } from "../lib/validate/types.ts";
import type { EditorMode } from "../pages/Pool.tsx";
import { AdvancedTab } from "./AdvancedTab.tsx";
import { BasicTab } from "./BasicTab.tsx";
import { FeeTab } from "./FeeTab.tsx";
import { PoolConfirm } from "./PoolConfirm.tsx";
import { ReplaceNameTab } from "./ReplaceNameTab.tsx";
import { ReplaceWalletTab } from "./ReplaceWalletTab.tsx";

const TAB_OF: Record<string, string> = {
  addr: "fee",
  device: "fee",
  percent: "fee",
  wallets: "fee",
  pattern_addr: "wallet",
  replace_addr: "wallet",
  sd: "name",
  st: "name",
  mallob: "adv",
};

interface Props {
  target: EditorMode;
  coin: string;
  onClose: () => void;
  onSaved: () => void;
}

/** The port editor: add, edit or clone, five tabs, the rules of spec §5. */
export function PortEditor({ target, coin, onClose, onSaved }: Props) {
  const [form, setForm] = useState<PortForm | null>(target.mode === "add" ? emptyForm(coin) : null);
  const [tab, setTab] = useState("basic");
  // After the first save attempt the rules run on every change, so a fixed field loses its message.
  const [tried, setTried] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  // The port is loaded once per opening: a re-render of the page (a new onClose) must not reload it
  // over what the user has typed.
  const close = useRef(onClose);
  close.current = onClose;
  useEffect(() => {
    if (target.mode === "add") return;
    getPort(target.id)
      .then((item) => setForm(target.mode === "clone" ? cloneForm(fromItem(item)) : fromItem(item)))
      .catch(() => {
        toast("err", t("editor.load_failed"));
        close.current();
      });
  }, [target]);
  if (!form) return null;
  const set = (patch: Partial<PortForm>) => setForm({ ...form, ...patch });
  const nginx = form.currency === NGINX;
  const fee = feeSummary(form.wallets);

  const save = async (confirmed: boolean) => {
    const errs = validatePort(form);
    setTried(true);
    if (errs.length) {
      setTab(TAB_OF[errs[0].field] ?? "basic");
      toast("err", t("editor.invalid"));
      return;
    }
    if (!confirmed && feePoolDiffers(form)) {
      setConfirming(true);
      return;
    }
    setConfirming(false);
    setBusy(true);
    try {
      await savePort(toPayload(form, currency.get()[form.currency]?.category ?? ""));
      toast("ok", t("editor.saved"));
      onSaved();
    } catch (e) {
      if (e instanceof Error && e.message === "create error") toast("err", t("editor.create_error"));
    } finally {
      setBusy(false);
    }
  };
  const errors: FieldError[] = tried ? validatePort(form) : [];
  const props = { form, set, errors };
  const title = t(`editor.title_${target.mode}`);
  return (
    <Modal
      title={title}
      onClose={onClose}
      wide
      testId="port-editor"
      footer={
        <>
          <button type="button" class={BTN_GHOST} onClick={onClose}>
            {t("common.cancel")}
          </button>
          <button
            type="button"
            class={BTN_PRIMARY}
            disabled={busy}
            onClick={() => save(false)}
            data-testid="editor-save"
          >
            {t("common.save")}
          </button>
        </>
      }
    >
      <Tabs
        active={tab}
        onSelect={setTab}
        tabs={[
          { key: "basic", label: t("editor.tab_basic") },
          {
            key: "fee",
            label: t("editor.tab_fee", { count: fee.count, percent: fee.percent }),
            disabled: nginx,
          },
          { key: "wallet", label: t("editor.tab_wallet"), disabled: nginx },
          { key: "name", label: t("editor.tab_name"), disabled: nginx },
          { key: "adv", label: t("editor.tab_adv"), disabled: nginx },
        ]}
      />
      {tab === "basic" && <BasicTab {...props} />}
      {tab === "fee" && <FeeTab {...props} />}
      {tab === "wallet" && <ReplaceWalletTab {...props} />}
      {tab === "name" && <ReplaceNameTab {...props} />}
      {tab === "adv" && <AdvancedTab {...props} />}
      {confirming && <PoolConfirm onCancel={() => setConfirming(false)} onConfirm={() => save(true)} />}
    </Modal>
  );
}
