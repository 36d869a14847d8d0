package io.dagnats.leases.cli;

import io.dagnats.leases.domain.Account;
import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.RevokeReason;
import io.dagnats.leases.domain.Revoker;
import io.dagnats.leases.protocol.Answers;
import io.dagnats.leases.protocol.JsonObjects;
import io.dagnats.leases.protocol.LeaseView;
import io.dagnats.leases.protocol.Request;
import java.io.PrintWriter;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code dagnats leases revoke KEY --reason TEXT [--tenure N | --revision N] [--by NAME]}: frees a
 * key through the service ({@code api.leases.revoke}), so the holder's next renew
 * answers {@code lost} and the change event names the holder, the reason and who revoked
 * ({@code --by}, default {@code $USER@hostname}; the caller's principal in identity mode, ADR-041).
 * A key that is already free is no failure; a {@code --revision} that is no
 * longer the current fence is (nothing was revoked), and so is, without one, a key
 * that changed hands during the revoke, and a {@code --tenure} that is not the current
 * lease's ({@link RevokeByTenure}). It prints which holder and fence it revoked.
 */
@Command(name = "revoke", description = {
    "Free a key over its holder's head; its next renew answers lost.",
    "Recommended: pass --tenure N from ls or get, so only the lease you looked at is revoked, renewed since or"
            + " not. --revision N revokes only while N is the current fence (a holder that renews moves it every"
            + " few seconds). With neither, the lease held when the service first reads the key is revoked; if the"
            + " key changes hands meanwhile, nothing is revoked."})
final class RevokeLease implements Callable<Integer> {

    private final Context context;

    @Mixin
    CommonOptions options;

    @Parameters(paramLabel = "KEY", converter = Converters.Key.class, description = "The lease's key.")
    LeaseKey key;

    @Option(names = "--reason", required = true, paramLabel = "TEXT", converter = Converters.Reason.class,
            description = "Why (1 to 200 printable ASCII characters); the change event carries it.")
    RevokeReason reason;

    @Option(names = "--revision", paramLabel = "N", converter = Converters.Revision.class,
            description = "Revoke only while N is the current fence (from ls or get), so a lease renewed or "
                    + "granted since is left alone.")
    Fence revision;

    @Option(names = "--tenure", paramLabel = "N", converter = Converters.Revision.class,
            description = "Recommended: revoke only the lease of tenure N (from ls or get), which stays the same "
                    + "while its holder renews; a lease granted since is left alone.")
    Fence tenure;

    @Option(names = "--by", paramLabel = "NAME", converter = Converters.By.class,
            description = "Who revokes, named in the change event and the holder's log (default $USER@hostname)."
                    + " In identity mode the service names your NATS principal instead.")
    Revoker by;

    @Spec
    CommandSpec spec;

    @Option(names = "--account", paramLabel = "ACCOUNT", converter = Converters.AccountName.class,
            description = "Identity mode (ADR-036), with an operator account's credentials: the account whose "
                    + "key it is; default the caller's own. Refused with identity mode off.")
    Account account;

    RevokeLease(Context context) {
        this.context = context;
    }

    @Override
    public Integer call() {
        if (tenure != null && revision != null) {
            throw new ParameterException(spec.commandLine(), "--tenure and --revision cannot be used together");
        }
        Answers.Revoke answer;
        Optional<Revoker> revoker = by != null ? Optional.of(by) : RevokerName.ofThisUser();
        try (NatsSession session = options.open()) {
            DagnatsCalls calls = new DagnatsCalls(session);
            answer = tenure != null
                    ? RevokeByTenure.revoke(calls, key, tenure, reason, Optional.ofNullable(account), revoker)
                    : calls.revoke(new Request.Revoke(key, reason, Optional.ofNullable(revision),
                            Optional.ofNullable(account), revoker));
        }
        PrintWriter out = context.out();
        if (options.json()) {
            out.println(json(answer));
        }
        if (answer instanceof Answers.Revoke.Revoked revoked) {
            if (!options.json()) {
                out.println("revoked " + revoked.key() + " from " + revoked.holder() + " (its revision "
                        + revoked.revokedRevision() + "; the revoke is revision " + revoked.revision() + ")");
            }
            return 0;
        }
        if (answer instanceof Answers.Revoke.NotCurrent notCurrent) {
            LeaseView lease = notCurrent.lease();
            if (tenure != null && RevokeByTenure.ofTenure(lease, tenure)) {
                throw new CliFailure("not revoked: " + lease.key() + " was renewed twice while revoking (now revision "
                        + lease.revision() + "); try again");
            }
            if (tenure != null) {
                throw new CliFailure("not revoked: " + lease.key() + " is held by " + lease.holder() + " in tenure "
                        + lease.tenure().map(Fence::toString).orElse("unknown") + " (revision " + lease.revision()
                        + "), not tenure " + tenure);
            }
            throw new CliFailure("not revoked: " + lease.key() + " is held by " + lease.holder() + " at revision "
                    + lease.revision() + (revision != null ? ", not " + revision
                            : ", a lease granted while revoking; revoke it with --revision " + lease.revision()));
        }
        if (!options.json()) {
            out.println(key + " is free: nothing to revoke");
        }
        return 0;
    }

    private String json(Answers.Revoke answer) {
        return JsonObjects.text(generator -> {
            if (answer instanceof Answers.Revoke.Revoked revoked) {
                generator.writeBooleanField("revoked", true);
                generator.writeStringField("key", revoked.key().value());
                generator.writeStringField("holder", revoked.holder().value());
                JsonObjects.writeFence(generator, "revision", revoked.revision());
                JsonObjects.writeFence(generator, "revoked_revision", revoked.revokedRevision());
            } else if (answer instanceof Answers.Revoke.NotCurrent notCurrent) {
                generator.writeBooleanField("revoked", false);
                generator.writeBooleanField("held", true);
                Json.lease(generator, notCurrent.lease(), context.clock().instant());
            } else {
                generator.writeBooleanField("revoked", false);
                generator.writeBooleanField("held", false);
                generator.writeStringField("key", answer.key().value());
            }
        });
    }
}
