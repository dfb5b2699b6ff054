import { Link } from 'react-router';
import { formatCount } from '../../shared/format.ts';
import { cartCount } from './cart-item.ts';
import { useCart } from './cart-store.ts';

// docs/pages.md shows the cart section to logged-in customers only. A visitor who added models still gets a
// place to find them (the cart link of "Added to cart · View cart" lands here) and the way to check out.

const BACK_TO_CART = { pathname: '/', search: '', hash: '#cart-section' };

export function VisitorCartNotice() {
  const count = cartCount(useCart());
  const items = formatCount(count, 'item');
  return (
    <div className="card visitor-cart">
      <p>
        Your cart holds <strong>{items}</strong>, kept in this browser. Log in or create an account to see it
        and check out: your cart will be waiting here.
      </p>
      <p className="visitor-cart-actions">
        <Link className="button button-primary" to="/login" state={{ from: BACK_TO_CART }}>
          Log in to check out
        </Link>
        <Link className="button" to="/register">
          Create an account
        </Link>
      </p>
    </div>
  );
}
