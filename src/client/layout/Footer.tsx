import { Link } from 'react-router';

/** The footer of docs/pages.md: About Us, Contact, FAQ and where we are. */
export function Footer() {
  return (
    <footer className="site-footer">
      <div className="footer-inner">
        <nav aria-label="Footer">
          <ul>
            <li>
              <Link to="/about">About Us</Link>
            </li>
            <li>
              <Link to="/contact">Contact</Link>
            </li>
            <li>
              <Link to="/faq">FAQ</Link>
            </li>
          </ul>
        </nav>
        <p className="location">
          Badger Print Co. · Custom 3D printing from Wisconsin, United States · Shipping to the US and Canada
        </p>
      </div>
    </footer>
  );
}
