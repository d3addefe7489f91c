/**
 * A second stack of the Lambda end-to-end test: a `cr.Provider` with an `isCompleteHandler`. The
 * framework's onEvent function starts the Step Functions state machine that polls isComplete,
 * whose answer (with its Data) completes the custom resource.
 */
import { CfnOutput, CustomResource, Duration, Stack, type StackProps } from 'aws-cdk-lib';
import { Code, Function as LambdaFunction, Runtime } from 'aws-cdk-lib/aws-lambda';
import { Provider } from 'aws-cdk-lib/custom-resources';
import type { Construct } from 'constructs';

const inline = (body: string): Code => Code.fromInline(`exports.handler = async (event) => (${body});`);

export class WaiterStack extends Stack {
  constructor(scope: Construct, id: string, props?: StackProps) {
    super(scope, id, props);
    const fn = (name: string, body: string): LambdaFunction =>
      new LambdaFunction(this, name, { runtime: Runtime.NODEJS_20_X, handler: 'index.handler', code: inline(body) });
    const provider = new Provider(this, 'Waiter', {
      onEventHandler: fn('WaiterOnEvent', `{ PhysicalResourceId: 'waited' }`),
      isCompleteHandler: fn('WaiterIsComplete', `{ IsComplete: true, Data: { Done: 'yes' } }`),
      queryInterval: Duration.seconds(1),
      totalTimeout: Duration.minutes(1),
    });
    const waited = new CustomResource(this, 'Waited', { serviceToken: provider.serviceToken });
    new CfnOutput(this, 'WaitedDone', { value: waited.getAttString('Done') });
  }
}
