/** Placeholder until the upload issue lands: the lazily loaded upload tool. */
export default function UploadTool() {
  return (
    <p className="placeholder-note" role="note">
      Placeholder: the upload tool (drag and drop .stl/.obj up to 64 MB, instant price) arrives with the
      upload issue.
    </p>
  );
}
