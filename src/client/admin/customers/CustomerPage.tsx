// The back office's Customer page (issue #25).
export default function CustomerPage() {
  return <h1>Customer</h1>;
}
