// The back office's Customers page (issue #25).
export default function CustomersPage() {
  return <h1>Customers</h1>;
}
