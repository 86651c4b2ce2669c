import { Link } from 'react-router';
import { useDocumentTitle } from '@/lib/document-title.ts';
import { AuthLayout } from './auth-layout.tsx';
import { AuthOptions } from './auth-options.tsx';

/** `/login`: sign in to an existing account. */
export function LoginPage() {
  useDocumentTitle('Sign in');
  return (
    <AuthLayout
      title="Welcome back"
      description="Sign in to your Bahi workspace."
      footer={
        <>
          New to Bahi?{' '}
          <Link to="/signup" className="font-medium text-primary underline-offset-4 hover:underline">
            Create an account
          </Link>
        </>
      }
    >
      <AuthOptions mode="signin" />
    </AuthLayout>
  );
}
