import { Navigate, NavLink, Route, Routes } from 'react-router';
import { HistoryTab } from './HistoryTab.tsx';
import { PricingTab } from './PricingTab.tsx';
import { ProductionTab } from './ProductionTab.tsx';
import { ShippingTab } from './ShippingTab.tsx';
import { ShopTab } from './ShopTab.tsx';
import './settings.css';

const TABS = [
  ['pricing', 'Pricing'],
  ['shipping', 'Shipping'],
  ['production', 'Production'],
  ['shop', 'Shop'],
  ['history', 'History'],
] as const;

/**
 * /admin/settings/*: the shop's settings (docs/pages.md): pricing with a live preview, shipping methods,
 * production capacity, the shop's build volume and upload retention, and the history of every change. Saved values apply to new quotes at once; placed
 * orders keep theirs.
 */
export default function SettingsPage() {
  return (
    <div className="admin-settings">
      <div className="admin-title-row">
        <h1>Settings</h1>
      </div>
      <nav className="admin-tabs settings-tabs" aria-label="Settings">
        <ul>
          {TABS.map(([path, label]) => (
            <li key={path}>
              <NavLink className="admin-tab" to={`/admin/settings/${path}`}>
                {label}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <Routes>
        <Route index element={<Navigate to="pricing" replace />} />
        <Route path="pricing" element={<PricingTab />} />
        <Route path="shipping" element={<ShippingTab />} />
        <Route path="production" element={<ProductionTab />} />
        <Route path="shop" element={<ShopTab />} />
        <Route path="history" element={<HistoryTab />} />
        <Route path="*" element={<Navigate to="/admin/settings/pricing" replace />} />
      </Routes>
    </div>
  );
}
