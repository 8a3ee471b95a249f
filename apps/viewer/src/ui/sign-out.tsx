/** Ends the browser's session (a form post, so it works without the page's scripts). */
export function SignOut() {
  return (
    <form method="post" action="/sign-out" class="sign-out">
      <button type="submit">Sign out</button>
    </form>
  );
}
