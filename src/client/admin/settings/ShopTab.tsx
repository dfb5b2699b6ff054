import { type AdminShopPayload, SHOP_FIELDS, type ShopFieldKey } from '../../../shared/admin-settings.ts';
import { Alert } from '../../ui/Alert.tsx';
import { useDocumentTitle } from '../../ui/useDocumentTitle.ts';
import { SaveBar, SettingField } from './SettingField.tsx';
import { formToShop, shopToForm } from './shop-form.ts';
import { fieldId, useSection } from './use-section.ts';
import { useSettingsForm } from './use-settings-form.ts';

/**
 * /admin/settings/shop: the printer's build volume (a model must fit it) and how long an upload no order
 * holds is kept. The defaults are the environment's (BUILD_VOLUME_MM, UPLOAD_RETENTION_HOURS).
 */
export function ShopTab() {
  useDocumentTitle('Shop · Settings · Admin');
  const section = useSection<AdminShopPayload>('/api/admin/settings/shop');
  if (section.error) return <Alert kind="error">{section.error}</Alert>;
  if (!section.data)
    return (
      <p className="loading" role="status">
        Loading the shop settings…
      </p>
    );
  return <ShopEditor loaded={section.data} onSaved={section.setData} />;
}

const VOLUME = SHOP_FIELDS.filter((f) => f.key.startsWith('buildVolumeMm.'));
const RETENTION = SHOP_FIELDS.filter((f) => f.key === 'uploadRetentionHours');

function ShopEditor({
  loaded,
  onSaved,
}: {
  loaded: AdminShopPayload;
  onSaved: (p: AdminShopPayload) => void;
}) {
  const {
    form,
    edit: change,
    problem,
    busy,
    status,
    dirty,
    save,
  } = useSettingsForm({
    section: 'shop',
    path: '/api/admin/settings/shop',
    loaded,
    toForm: shopToForm,
    parse: formToShop,
    onSaved,
    savedMessage:
      'Saved. Quotes, checkouts and new uploads use it at once; the next cleanup uses the retention.',
  });
  const defaults = shopToForm(loaded.defaults);

  const errorOf = (field: string) => (problem && problem.field === field ? problem.error : undefined);
  const unplaced = problem && !SHOP_FIELDS.some((f) => f.key === problem.field);
  const edit = (key: ShopFieldKey, text: string) => change((f) => ({ ...f, [key]: text }));

  const field = (f: (typeof SHOP_FIELDS)[number]) => (
    <SettingField
      key={f.key}
      id={fieldId('shop', f.key)}
      label={f.label}
      unit={f.unit}
      help={f.help}
      value={form[f.key]}
      onChange={(text) => edit(f.key, text)}
      error={errorOf(f.key)}
      defaultText={defaults[f.key]}
    />
  );

  return (
    <form className="settings-form shop-form" onSubmit={save} noValidate aria-labelledby="shop-title">
      <h2 id="shop-title" className="visually-hidden">
        Shop settings
      </h2>
      <fieldset className="card settings-group">
        <legend>Printer build volume</legend>
        <p className="hint">
          A model that does not fit these in any orientation gets a warning on upload and cannot be ordered.
        </p>
        <div className="settings-grid">{VOLUME.map(field)}</div>
      </fieldset>
      <fieldset className="card settings-group">
        <legend>Uploads</legend>
        <div className="settings-grid">{RETENTION.map(field)}</div>
      </fieldset>
      <SaveBar
        busy={busy}
        dirty={dirty}
        status={status}
        error={unplaced && problem ? problem.error : ''}
        label="Save shop settings"
      />
    </form>
  );
}
