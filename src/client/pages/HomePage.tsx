import { lazy, Suspense } from 'react';
import { cartCount } from '../cart/cart-item.ts';
import { useCart } from '../cart/cart-store.ts';
import { VisitorCartNotice } from '../cart/VisitorCartNotice.tsx';
import { useSession } from '../session/SessionProvider.tsx';
import { useDocumentTitle } from '../ui/useDocumentTitle.ts';
import { GALLERY } from './gallery.ts';

const UploadTool = lazy(() => import('../upload/UploadTool.tsx'));
const CartSection = lazy(() => import('../cart/CartSection.tsx'));

const STEPS = [
  {
    title: 'Upload your model',
    text: 'Drop an .stl, .obj or .3mf file (up to 64 MB). We measure it and price it instantly.',
  },
  {
    title: 'Choose color and strength',
    text: 'Pick one of seven colors and a strength from Hollow to Solid, and see the price change as you go.',
  },
  {
    title: 'We print and ship',
    text: 'Pay by card. We print in Wisconsin and ship to the US and Canada, usually within one week.',
  },
];

export default function HomePage() {
  useDocumentTitle('Custom 3D printing');
  const { username, loading } = useSession();
  const cart = useCart();

  return (
    <>
      <section className="hero" aria-labelledby="hero-title">
        <div className="hero-text">
          <p className="eyebrow">Custom 3D printing · Made in Wisconsin</p>
          <h1 id="hero-title">Your design, printed and at your door within a week.</h1>
          <p className="lead">
            Upload an STL, OBJ or 3MF file, get an instant price for every strength, pick a color, and check
            out. From $12.00 per item, shipped to the United States and Canada.
          </p>
          <a className="button button-primary button-large" href="#upload">
            Upload a model
          </a>
        </div>
        <ul className="gallery" aria-label="Prints from our shop">
          {GALLERY.map((g) => (
            <li key={g.src}>
              <figure>
                <img src={g.src} alt={g.alt} width="800" height="600" loading="eager" />
                <figcaption>{g.caption}</figcaption>
              </figure>
            </li>
          ))}
        </ul>
      </section>

      <section className="section how-it-works" aria-labelledby="how-title">
        <h2 id="how-title">How it works</h2>
        <ol className="steps">
          {STEPS.map((s, i) => (
            <li key={s.title} className="step">
              <span className="step-number" aria-hidden="true">
                {i + 1}
              </span>
              <h3>{s.title}</h3>
              <p>{s.text}</p>
            </li>
          ))}
        </ol>
      </section>

      <section id="upload" className="section upload-section" aria-labelledby="upload-title">
        <h2 id="upload-title">Get an instant quote</h2>
        <Suspense fallback={<p className="loading">Loading the upload tool…</p>}>
          <UploadTool />
        </Suspense>
      </section>

      {cart.length > 0 && !loading && (
        <>
          {/* On a phone, however long the list of models above, the cart is one tap away: this link sticks
              to the bottom of the screen until the page reaches its place, just above the cart. */}
          <p className="cart-jump">
            <a className="button button-primary" href="#cart-section">
              View cart ({cartCount(cart)})
            </a>
          </p>
          <section id="cart-section" className="section cart-section" aria-labelledby="cart-title">
            <h2 id="cart-title">Your cart</h2>
            {username ? (
              <Suspense fallback={<p className="loading">Loading your cart…</p>}>
                <CartSection />
              </Suspense>
            ) : (
              <VisitorCartNotice />
            )}
          </section>
        </>
      )}
    </>
  );
}
