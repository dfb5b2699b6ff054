/** Placeholder until the upload issue lands: the lazily loaded 3D viewer modal. */
export default function ViewerModal(props: {
  url: string;
  fileName: string;
  color: string;
  onClose: () => void;
}) {
  return (
    <div role="dialog" aria-modal="true" aria-label={`3D view of ${props.fileName}`} className="modal">
      <p className="placeholder-note">Placeholder: the 3D viewer arrives with the upload issue.</p>
      <button type="button" className="button" onClick={props.onClose}>
        Close
      </button>
    </div>
  );
}
