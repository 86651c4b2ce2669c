import { MIN_PASSWORD_LENGTH, type SignInInput, SignInInputSchema, SignUpInputSchema } from '@bahi/contracts';
import { Loader2Icon } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { FormError } from '@/components/form-error.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Input } from '@/components/ui/input.tsx';
import { Label } from '@/components/ui/label.tsx';
import { authClient } from '@/lib/auth-client.ts';
import { describeAuthError, isAccountExistsError } from '@/lib/auth-errors.ts';
import { registerClearing, useContractForm } from '@/lib/form.ts';
import { PasswordInput } from './password-input.tsx';

/** What the form holds: sign-up's name box is absent on sign-in. */
type EmailAuthValues = SignInInput & { name?: string };

/**
 * The form's state and its submit: signs in or up through Better Auth, then waits for the session
 * before leaving; an answer from the server is kept as `error` (and, on sign-up, whether the address
 * already has an account).
 */
function useEmailAuth(mode: 'signin' | 'signup') {
  const navigate = useNavigate();
  const session = authClient.useSession();
  // Coming from "Sign in instead" on the sign-up form, the address is already typed.
  const location = useLocation();
  const form = useContractForm<EmailAuthValues, EmailAuthValues>(
    mode === 'signup' ? SignUpInputSchema : SignInInputSchema,
    { name: '', email: (location.state as { email?: string } | null)?.email ?? '', password: '' },
  );
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  // Sign-up with an address that has an account: the answer offers signing in instead.
  const [accountExists, setAccountExists] = useState(false);

  /** Runs with the contract's output: name and address trimmed, the password as typed. */
  async function submit(values: EmailAuthValues) {
    setSubmitting(true);
    try {
      const { email: address, password } = values;
      const result =
        mode === 'signup'
          ? await authClient.signUp.email({ name: values.name ?? '', email: address, password })
          : await authClient.signIn.email({ email: address, password });
      if (result.error) {
        setError(describeAuthError(result.error));
        setAccountExists(mode === 'signup' && isAccountExistsError(result.error));
        return;
      }
      // Make sure the session store holds the new user before leaving, or the guard would bounce us.
      await session.refetch();
      navigate('/', { replace: true });
    } catch {
      setError('Could not reach the Bahi server. Check your connection and try again.');
    } finally {
      setSubmitting(false);
    }
  }

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    // A new attempt starts without the last one's answer, whatever the password check says.
    setError(null);
    setAccountExists(false);
    void form.handleSubmit(submit)(event);
  }

  return { form, error, submitting, accountExists, handleSubmit };
}

/** E-mail + password form for signing in (`mode="signin"`) or creating an account (`mode="signup"`). */
export function EmailAuthForm({ mode }: { mode: 'signin' | 'signup' }) {
  const id = useId();
  const { form, error, submitting, accountExists, handleSubmit } = useEmailAuth(mode);
  // Watched, so "Sign in instead" carries the address as it is now.
  const email = form.watch('email');
  const passwordError = form.formState.errors.password?.message;

  return (
    // The browser's own checks (required, type=email) stay on: they run before this handler does.
    <form onSubmit={handleSubmit} className="flex flex-col gap-4" noValidate={false}>
      {mode === 'signup' && (
        <div className="grid grid-cols-1 gap-2">
          <Label htmlFor={`${id}-name`}>Full name</Label>
          <Input
            id={`${id}-name`}
            autoComplete="name"
            required
            {...form.register('name')}
            placeholder="Asha Verma"
          />
        </div>
      )}
      <div className="grid grid-cols-1 gap-2">
        <Label htmlFor={`${id}-email`}>Email</Label>
        <Input
          id={`${id}-email`}
          type="email"
          autoComplete="email"
          required
          {...form.register('email')}
          placeholder="you@company.in"
        />
      </div>
      <div className="grid grid-cols-1 gap-2">
        <Label htmlFor={`${id}-password`}>Password</Label>
        <PasswordInput
          id={`${id}-password`}
          autoComplete={mode === 'signup' ? 'new-password' : 'current-password'}
          required
          minLength={mode === 'signup' ? MIN_PASSWORD_LENGTH : undefined}
          aria-invalid={passwordError ? true : undefined}
          aria-describedby={mode === 'signup' ? `${id}-password-help` : undefined}
          {...registerClearing(form, 'password')}
        />
        {mode === 'signup' && (
          <p
            id={`${id}-password-help`}
            className={passwordError ? 'text-destructive text-xs' : 'text-muted-foreground text-xs'}
          >
            {passwordError ?? `At least ${MIN_PASSWORD_LENGTH} characters.`}
          </p>
        )}
      </div>
      <FormError message={error}>
        {accountExists && (
          <Link
            to="/login"
            state={{ email: email.trim() }}
            className="font-medium underline underline-offset-2"
          >
            Sign in instead
          </Link>
        )}
      </FormError>
      <Button type="submit" size="lg" className="mt-1 w-full" disabled={submitting}>
        {submitting && <Loader2Icon className="animate-spin" aria-hidden="true" />}
        {mode === 'signup' ? 'Create account' : 'Sign in'}
      </Button>
    </form>
  );
}
