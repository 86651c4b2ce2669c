import { Loader2Icon } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { Button } from '@/components/ui/button.tsx';
import { Input } from '@/components/ui/input.tsx';
import { Label } from '@/components/ui/label.tsx';
import { describeAuthError, isAccountExistsError } from '@/lib/auth-errors.ts';
import { authClient } from './auth-client.ts';
import { FormError } from './form-error.tsx';
import { PasswordInput } from './password-input.tsx';

/** Minimum password length better-auth enforces by default; checked here for an instant message. */
const MIN_PASSWORD_LENGTH = 8;

/** E-mail + password form for signing in (`mode="signin"`) or creating an account (`mode="signup"`). */
export function EmailAuthForm({ mode }: { mode: 'signin' | 'signup' }) {
  const navigate = useNavigate();
  const session = authClient.useSession();
  const id = useId();
  const [name, setName] = useState('');
  // Coming from "Sign in instead" on the sign-up form, the address is already typed.
  const location = useLocation();
  const [email, setEmail] = useState(() => (location.state as { email?: string } | null)?.email ?? '');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [passwordError, setPasswordError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  // Sign-up with an address that has an account: the answer offers signing in instead.
  const [accountExists, setAccountExists] = useState(false);

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setError(null);
    setAccountExists(false);
    if (mode === 'signup' && password.length < MIN_PASSWORD_LENGTH) {
      setPasswordError(`Password must be at least ${MIN_PASSWORD_LENGTH} characters`);
      return;
    }
    setSubmitting(true);
    try {
      const result =
        mode === 'signup'
          ? await authClient.signUp.email({ name: name.trim(), email: email.trim(), password })
          : await authClient.signIn.email({ email: email.trim(), password });
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

  return (
    <form onSubmit={handleSubmit} className="flex flex-col gap-4" noValidate={false}>
      {mode === 'signup' && (
        <div className="grid grid-cols-1 gap-2">
          <Label htmlFor={`${id}-name`}>Full name</Label>
          <Input
            id={`${id}-name`}
            name="name"
            autoComplete="name"
            required
            value={name}
            onChange={(e) => setName(e.target.value)}
            placeholder="Asha Verma"
          />
        </div>
      )}
      <div className="grid grid-cols-1 gap-2">
        <Label htmlFor={`${id}-email`}>Email</Label>
        <Input
          id={`${id}-email`}
          name="email"
          type="email"
          autoComplete="email"
          required
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          placeholder="you@company.in"
        />
      </div>
      <div className="grid grid-cols-1 gap-2">
        <Label htmlFor={`${id}-password`}>Password</Label>
        <PasswordInput
          id={`${id}-password`}
          name="password"
          autoComplete={mode === 'signup' ? 'new-password' : 'current-password'}
          required
          minLength={mode === 'signup' ? MIN_PASSWORD_LENGTH : undefined}
          value={password}
          aria-invalid={passwordError ? true : undefined}
          aria-describedby={mode === 'signup' ? `${id}-password-help` : undefined}
          onChange={(e) => {
            setPassword(e.target.value);
            setPasswordError(null);
          }}
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
