import { Link } from 'react-router';
import { useDocumentTitle } from '@/lib/document-title.ts';
import { AuthLayout } from './auth-layout.tsx';
import { AuthOptions } from './auth-options.tsx';

/** `/signup`: create an account. */
export function SignupPage() {
  useDocumentTitle('Create account');
  return (
    <AuthLayout
      title="Create your account"
      description="Start automating your finance back office."
      footer={
        <>
          Already have an account?{' '}
          <Link to="/login" className="font-medium text-primary underline-offset-4 hover:underline">
            Sign in
          </Link>
        </>
      }
    >
      <AuthOptions mode="signup" />
    </AuthLayout>
  );
}
