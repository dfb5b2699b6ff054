// The back office's Messages page (issue #25).
export default function MessagesPage() {
  return <h1>Messages</h1>;
}
