package io.dagnats.leases.cli;

import java.lang.reflect.Constructor;
import picocli.CommandLine;

/** Creates commands and mixins that take the {@link Context} in their constructor; picocli's defaults otherwise. */
final class ContextFactory implements CommandLine.IFactory {

    private final Context context;

    ContextFactory(Context context) {
        this.context = context;
    }

    @Override
    public <K> K create(Class<K> type) throws Exception {
        Constructor<K> withContext;
        try {
            withContext = type.getDeclaredConstructor(Context.class);
        } catch (NoSuchMethodException none) {
            return CommandLine.defaultFactory().create(type);
        }
        return withContext.newInstance(context);
    }
}
