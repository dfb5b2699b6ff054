// The back office's Dashboard page (issue #25).
export default function DashboardPage() {
  return <h1>Dashboard</h1>;
}
