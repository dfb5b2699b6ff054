import { useState } from 'react';
import { Link, NavLink, useNavigate } from 'react-router';
import { cartCount } from '../cart/cart-item.ts';
import { useCart } from '../cart/cart-store.ts';
import { MSG } from '../messages.ts';
import { useSession } from '../session/SessionProvider.tsx';

function CartIcon() {
  return (
    <svg
      aria-hidden="true"
      width="22"
      height="22"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
    >
      <circle cx="9" cy="20" r="1.5" />
      <circle cx="18" cy="20" r="1.5" />
      <path d="M2.5 3h3l2.7 12.4a1.5 1.5 0 0 0 1.5 1.1h8.6a1.5 1.5 0 0 0 1.5-1.1L22 7H6.2" />
    </svg>
  );
}

/** The navigation bar of docs/pages.md. */
export function NavBar() {
  const { username, isAdmin, loading, logout } = useSession();
  const items = useCart();
  const count = cartCount(items);
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const close = () => setOpen(false);

  return (
    <header className="site-header">
      <nav className="navbar" aria-label="Main">
        <Link to="/" className="brand" onClick={close}>
          <img src="/favicon.svg" alt="" width="32" height="32" />
          <span>Badger Print Co.</span>
        </Link>
        <button
          type="button"
          className="nav-toggle"
          aria-expanded={open}
          aria-controls="nav-links"
          onClick={() => setOpen((o) => !o)}
        >
          <span className="visually-hidden">Menu</span>
          <span aria-hidden="true">☰</span>
        </button>
        <ul id="nav-links" className={open ? 'nav-links open' : 'nav-links'}>
          <li>
            <NavLink to="/" end onClick={close}>
              Home
            </NavLink>
          </li>
          <li>
            <NavLink to="/about" onClick={close}>
              About
            </NavLink>
          </li>
          <li>
            <NavLink to="/contact" onClick={close}>
              Contact
            </NavLink>
          </li>
          <li>
            <NavLink to="/faq" onClick={close}>
              FAQ
            </NavLink>
          </li>
          {username && isAdmin && (
            <li>
              {/* A plain link: the admin panel is its own part of the site. */}
              <a href="/admin/" onClick={close}>
                Admin Panel
              </a>
            </li>
          )}
          {loading ? null : username ? (
            <>
              <li>
                <NavLink to="/orders" onClick={close}>
                  My Orders
                </NavLink>
              </li>
              <li>
                <Link to="/#cart-section" className="cart-link" onClick={close}>
                  <CartIcon />
                  <span className="visually-hidden">Cart,</span>
                  <span className="badge" data-testid="cart-count" aria-hidden="true">
                    {count}
                  </span>
                  <span className="visually-hidden">{MSG.itemsInCart(count)}</span>
                </Link>
              </li>
              <li>
                <button
                  type="button"
                  className="link-button"
                  onClick={async () => {
                    close();
                    await logout();
                    navigate('/');
                  }}
                >
                  Logout
                </button>
              </li>
            </>
          ) : (
            <>
              <li>
                <NavLink to="/login" onClick={close}>
                  Login
                </NavLink>
              </li>
              <li>
                <NavLink to="/register" className="nav-cta" onClick={close}>
                  Register
                </NavLink>
              </li>
            </>
          )}
        </ul>
      </nav>
    </header>
  );
}
