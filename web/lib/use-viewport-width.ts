import { useEffect, useState } from "react";

/** The window's inner width, kept current on resize. */
export function useViewportWidth(): number {
  const [width, setWidth] = useState(() => window.innerWidth);
  useEffect(() => {
    const update = () => setWidth(window.innerWidth);
    window.addEventListener("resize", update);
    // A resize between the render and now is caught with the next frame: reading the width makes
    // the browser lay the page out, which it does for that frame anyway, instead of in the middle
    // of the render that showed the page.
    const frame = requestAnimationFrame(update);
    return () => {
      cancelAnimationFrame(frame);
      window.removeEventListener("resize", update);
    };
  }, []);
  return width;
}
