import { Link } from 'react-router';
import { useDocumentTitle } from '../ui/useDocumentTitle.ts';

export default function AboutPage() {
  useDocumentTitle('About us');
  return (
    <article className="page prose">
      <h1>About us</h1>
      <p className="lead">
        Badger Print Co. is a small 3D-printing workshop in Wisconsin, United States. We turn your digital
        models into solid parts: prototypes, replacement pieces, gifts, miniatures and everything in between.
      </p>
      <h2>What we do</h2>
      <p>
        You upload an .stl, .obj or .3mf file and see its size and price right away, for every print strength.
        Choose one of our seven colors, add it to your cart and pay by card through a secure hosted checkout.
        We check every model before it goes on a printer.
      </p>
      <h2>Shipping</h2>
      <p>
        We ship to the United States and Canada. Most orders are printed and shipped within one week; you can
        follow each order, its status and its tracking number under My Orders.
      </p>
      <h2>Our promise</h2>
      <p>
        If a print arrives damaged or defective, tell us within 7 days of receipt and we will make it right.
        Questions before you order? <Link to="/contact">Write to us</Link> or read the{' '}
        <Link to="/faq">FAQ</Link>.
      </p>
    </article>
  );
}
