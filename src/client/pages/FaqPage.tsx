import { Link } from 'react-router';
import { COLORS, SHIPPING_COUNTRIES, STRENGTHS } from '../../shared/catalog.ts';
import { TAX_WORDS } from '../../shared/shipping.ts';
import { methodWords, SHIP_TO_NAMES, useShopInfo } from '../shop-info.ts';
import { useDocumentTitle } from '../ui/useDocumentTitle.ts';

export default function FaqPage() {
  useDocumentTitle('FAQ');
  // The shop's tax handling and shipping methods (GET /api/shop): until they are known, the specified words alone.
  const shop = useShopInfo();
  return (
    <article className="page prose">
      <h1>Frequently asked questions</h1>
      <div className="faq">
        <details open>
          <summary>How much does a print cost?</summary>
          <p>
            The price depends on the amount of material and the printing time of your model at the strength
            you choose; you see it the moment you upload. The minimum price is $12.00 per item. Prices exclude
            taxes, which are confirmed at checkout.
            {shop && <span data-testid="faq-tax"> {TAX_WORDS[shop.tax]}</span>}
          </p>
        </details>
        <details>
          <summary>Which files can I upload?</summary>
          <p>
            STL (.stl, binary or ASCII), OBJ (.obj) and 3MF (.3mf, as PrusaSlicer, Bambu Studio and Cura save
            them) files, up to 64 MB each. STL and OBJ models are read in millimetres; if your model looks
            like it was designed in inches, we will offer to scale it for you. A 3MF file says its unit, and
            we use it.
          </p>
        </details>
        <details>
          <summary>Which colors can I choose?</summary>
          <ul className="color-list">
            {COLORS.map((c) => (
              <li key={c.hex}>
                <span className="swatch" style={{ background: c.hex }} aria-hidden="true" /> {c.name}
              </li>
            ))}
          </ul>
        </details>
        <details>
          <summary>What does print strength mean?</summary>
          <p>Strength sets how solid the inside of your print is, on a scale of 1 to 5:</p>
          <ol className="strength-list">
            {STRENGTHS.map((s) => (
              <li key={s.level}>
                <strong>{s.label}</strong> ({s.level}/5)
              </li>
            ))}
          </ol>
          <p>Hollow is lightest and cheapest; Solid is the strongest and heaviest.</p>
        </details>
        <details>
          <summary>Where do you ship, and how fast?</summary>
          <p>
            We are based in Wisconsin, United States, and ship to the United States and Canada. Orders are
            usually printed and shipped within 1 week.
          </p>
          {shop && (
            <div data-testid="faq-shipping">
              <p>
                The cart shows the shipping methods for your country, the day your order ships by and when it
                arrives; you choose the method on the payment page.
              </p>
              {SHIPPING_COUNTRIES.map((c) => (
                <div key={c}>
                  <p>
                    <strong>{SHIP_TO_NAMES[c]}</strong>
                  </p>
                  <ul>
                    {shop.shipping[c].map((m) => (
                      <li key={m.id}>{methodWords(m)}</li>
                    ))}
                  </ul>
                </div>
              ))}
            </div>
          )}
        </details>
        <details>
          <summary>Do I need an account?</summary>
          <p>
            Anyone can upload a model and see its price. To order, you need an account with a verified email
            address; it lets you follow your orders, their status and tracking numbers.
          </p>
        </details>
        <details>
          <summary>My print arrived damaged or defective. What now?</summary>
          <p>
            Report defects within 7 days of receipt through the <Link to="/contact">contact form</Link>, with
            your order number and a photo, and we will reprint or refund it.
          </p>
        </details>
      </div>
    </article>
  );
}
