// The back office's Settings page (issue #25).
export default function SettingsPage() {
  return <h1>Settings</h1>;
}
